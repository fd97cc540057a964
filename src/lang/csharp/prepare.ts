/**
 * C# source as tree-sitter-c-sharp can read it. The grammar reads every branch of `#if` / `#elif`
 * / `#else` as if the others were not there. Between whole declarations or statements that works;
 * a conditional that cuts a construct (an expression-bodied member whose `=> ...` differs per
 * target framework) leaves two bodies for one member, and the error swallows the members after
 * it. There, one configuration is kept, the first branch: the directives and the other branches'
 * lines become spaces (line breaks kept, so every position stays where it was). A conditional
 * opens inside a construct when the code line before it does not end one (`;`, `{`, `}`, `]`,
 * `:`).
 */
export function prepareCSharpSource(text: string): string {
  if (!text.includes("#if")) return text;
  const lines = text.split("\n");
  const groups: { inside: boolean; outerSkip: boolean }[] = [];
  let skipping = false;
  let previous = "";
  let changed = false;
  const blank = (i: number) => {
    lines[i] = lines[i].replace(/[^\r]/g, " ");
    changed = true;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const directive = /^#\s*(if|elif|else|endif)\b/.exec(line)?.[1];
    if (directive === "if") {
      const inside = previous !== "" && !/[;{}\]:]$/.test(previous);
      groups.push({ inside, outerSkip: skipping });
      if (inside || skipping) blank(i);
    } else if (directive === "elif" || directive === "else") {
      const group = groups[groups.length - 1];
      if (group?.inside) {
        skipping = true;
        blank(i);
      } else if (skipping) blank(i);
    } else if (directive === "endif") {
      const group = groups.pop();
      if (group?.inside || skipping) blank(i);
      if (group) skipping = group.outerSkip;
    } else if (skipping) blank(i);
    else if (line && !line.startsWith("#") && !line.startsWith("//")) {
      previous = line.replace(/\/\/.*$|\/\*.*\*\/\s*$/, "").trim() || previous;
    }
  }
  return changed ? lines.join("\n") : text;
}
