/**
 * The packed encoding of JSON-like values: its format (packed/format.ts), its writer and its
 * reader.
 */
export { Packer } from "./packed/write.ts";
export { PackedReader } from "./packed/read.ts";
