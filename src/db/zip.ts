/**
 * A minimal zip reader (enough for a Python wheel): the central directory, stored and deflated
 * entries, no zip64, no encryption. Inflates with the platform's DecompressionStream.
 */

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export class ZipError extends Error {}

/** Lists the entries of a zip archive held in memory. */
export function zipEntries(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError("not a zip archive (no end of central directory)");
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  let p = view.getUint32(eocd + 16, true);
  if (count === 0xffff || p === 0xffffffff || p + cdSize > zip.length) {
    throw new ZipError("zip64 or truncated archive is not supported");
  }
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (p + 46 > zip.length || view.getUint32(p, true) !== CENTRAL) {
      throw new ZipError("corrupt central directory");
    }
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    entries.push({
      method: view.getUint16(p + 10, true),
      crc32: view.getUint32(p + 16, true),
      compressedSize: view.getUint32(p + 20, true),
      size: view.getUint32(p + 24, true),
      localOffset: view.getUint32(p + 42, true),
      name: decoder.decode(zip.subarray(p + 46, p + 46 + nameLen)),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The uncompressed bytes of one entry; checks its size and CRC-32. */
export async function zipRead(zip: Uint8Array, entry: ZipEntry): Promise<Uint8Array> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localOffset;
  if (at + 30 > zip.length || view.getUint32(at, true) !== LOCAL) {
    throw new ZipError(`corrupt local header for ${entry.name}`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const raw = zip.subarray(start, start + entry.compressedSize);
  if (raw.length !== entry.compressedSize) throw new ZipError(`${entry.name} is truncated`);
  let data: Uint8Array;
  if (entry.method === 0) {
    data = raw.slice();
  } else if (entry.method === 8) {
    try {
      const stream = new Blob([raw as Uint8Array<ArrayBuffer>]).stream()
        .pipeThrough(new DecompressionStream("deflate-raw"));
      data = new Uint8Array(await new Response(stream).arrayBuffer());
    } catch (err) {
      throw new ZipError(`${entry.name} does not inflate: ${(err as Error).message}`);
    }
  } else {
    throw new ZipError(`${entry.name} uses unsupported compression method ${entry.method}`);
  }
  if (data.length !== entry.size) throw new ZipError(`${entry.name} has the wrong size`);
  if (crc32(data) !== entry.crc32) throw new ZipError(`${entry.name} fails its CRC-32 check`);
  return data;
}

let table: Uint32Array | undefined;

export function crc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
