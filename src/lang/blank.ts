/**
 * Same-length rewriting for the languages' text passes (`LanguageSpec.prepare`): characters become
 * spaces, line breaks stay, so every offset and line of the file is where it was.
 */

/** The text with each range's characters turned into spaces, its line breaks kept. */
export function spaceOut(text: string, ranges: [number, number][]): string {
  if (!ranges.length) return text;
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [a, b] of sorted) {
    const from = Math.max(a, at);
    if (b <= from) continue;
    parts.push(text.slice(at, from), text.slice(from, b).replace(/[^\r\n]/g, " "));
    at = b;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
