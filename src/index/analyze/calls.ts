/** The analyzer's calls: each matched call read into a CallFact (receivers, arguments, lambdas). */
import type { Node } from "web-tree-sitter";
import type { LanguageSpec, ScopeLambda } from "../../lang/spec.ts";
import type { CallFact } from "../../graph/facts.ts";
import { cleanName, normalizeReceiver, typeName } from "./text.ts";
import { contains } from "./nodes.ts";
import { argsOf, argType, typeArgCount } from "./args.ts";
import type { PendingCall } from "./gather.ts";
import type { Locate } from "./defs.ts";

/** Lambdas that run on a value, innermost first. */
export type Scoped = { start: number; end: number; lambda: ScopeLambda; value: string }[];

export function scopedLambdas(spec: LanguageSpec, calls: Map<number, PendingCall>): Scoped {
  // Lambdas that run on a value (Kotlin `x.apply { }`, `x.let { }`), read off the matched calls.
  const scoped: Scoped = [];
  if (spec.scopeLambda) {
    for (const call of calls.values()) {
      const text = call.text = call.name.text;
      if (call.receiver === undefined && text !== "with") continue;
      const found = spec.scopeLambda(call.node, text);
      if (!found) continue;
      const value = normalizeReceiver(found.value.text);
      if (!value) continue;
      const [start, end] = [found.lambda.startIndex, found.lambda.endIndex];
      scoped.push({ start, end, lambda: found, value });
    }
    // Innermost first: a later start inside an earlier lambda is nested in it.
    scoped.sort((a, b) => b.start - a.start);
  }
  return scoped;
}

/** The calls' facts, by line. */
export function callFactsOf(
  spec: LanguageSpec,
  calls: Map<number, PendingCall>,
  scoped: Scoped,
  defIndexAt: Locate,
): CallFact[] {
  const callFacts: CallFact[] = [];
  for (const call of calls.values()) {
    if (call.range) {
      const from = defIndexAt(call.node, false, false);
      for (const fact of rangeCalls(call.name)) callFacts.push({ from, ...fact });
      continue;
    }
    if (call.operator) {
      const fact = operatorCall(call.node, call.name, call.receiver);
      if (fact) callFacts.push({ from: defIndexAt(call.node, false, false), ...fact });
      continue;
    }
    let receiver = call.receiver ? normalizeReceiver(call.receiver.text) : undefined;
    let implicit: string | undefined;
    if (scoped.length) {
      const [start, end] = [call.node.startIndex, call.node.endIndex];
      const head = receiver?.match(/^[\w$]+/)?.[0];
      for (const s of scoped) {
        if (s.start > start || s.end < end) continue;
        if (s.lambda.as === "this") {
          // The innermost receiver lambda: its value is `this`, and a bare call's first try.
          if (implicit !== undefined) continue;
          implicit = s.value;
          if (receiver !== undefined && spec.selfNames[0] === receiver) receiver = s.value;
        } else if (
          head && head === s.lambda.param && !spec.rebinds?.(call.node, s.lambda.lambda, head)
        ) {
          receiver = s.value + receiver!.slice(head.length);
          break;
        }
      }
      // A receiver that is `this` or the parameter was replaced by the value: nothing to try.
      if (call.receiver !== undefined && receiver !== normalizeReceiver(call.receiver.text)) {
        implicit = undefined;
      }
    }
    const argList = argsOf(call.node, spec.overloads === true);
    const callText = call.node.text;
    // An object made without an argument list (`Status s;`, `new Foo`) passes none; a
    // constructor reference (`Child::new`, `::Child`) passes what its use decides.
    const args = argList?.length ??
      (call.isNew && !call.delegate && !/[({]|::\s*new$|^::/.test(callText) ? 0 : undefined);
    const argTypes = argList?.some(Boolean) ? argList : undefined;
    const typeArgs = call.isNew ? undefined : typeArgCount(call.node, call.name, callText);
    const argNames = argList?.names.some(Boolean) ? argList.names : undefined;
    callFacts.push({
      from: defIndexAt(call.node, false, false),
      name: call.isNew
        ? typeName(call.text ?? call.name.text)
        : cleanName(call.text ?? call.name.text),
      receiver: receiver || undefined,
      ...(receiver && call.method ? { method: true } : {}),
      ...(implicit ? { implicit } : {}),
      // The callee's name token, unless it lies outside the call (`super(...)` names the base
      // class in the class header).
      line: (!call.delegate || contains(call.node, call.name) ? call.name : call.node)
        .startPosition.row + 1,
      isNew: call.isNew || undefined,
      delegate: call.delegate || undefined,
      ...(args !== undefined ? { args } : {}),
      ...(argTypes ? { argTypes } : {}),
      ...(typeArgs ? { typeArgs } : {}),
      ...(argNames ? { argNames } : {}),
    });
  }
  callFacts.sort((a, b) => a.line - b.line);
  return callFacts;
}

/**
 * An operator expression as a call of the operator function (`a << b` -> `operator<<` with
 * receiver `a` and one argument `b`; `!x`, `++it` -> no argument; `it++` -> the `int` tag;
 * `v[i]` -> `operator[]`). In a chain (`out << a << b`) the receiver is the chain's first operand:
 * such operators return their left operand (streams, builders, arithmetic types).
 */
function operatorCall(
  node: Node,
  token: Node,
  operand: Node | undefined,
): Omit<CallFact, "from"> | undefined {
  if (!operand) return undefined;
  const op = token.text === "[" ? "[]" : token.text;
  let left = operand;
  while (left.type === "binary_expression" && left.childForFieldName("operator")?.text === op) {
    left = left.childForFieldName("left") ?? left;
  }
  while (left.type === "parenthesized_expression" && left.namedChildCount === 1) {
    left = left.namedChild(0) ?? left;
  }
  if (left.text.length > 120 || left.text.includes("\n")) return undefined;
  const receiver = normalizeReceiver(left.text);
  const right = node.childForFieldName("right") ??
    node.childForFieldName("indices")?.namedChild(0) ?? null;
  const postfix = node.type === "update_expression" && node.firstChild?.id === operand.id;
  const argTypes = right ? [argType(right)] : postfix ? ["int"] : [];
  return {
    name: `operator${op}`,
    receiver,
    line: token.startPosition.row + 1,
    operator: true,
    args: argTypes.length,
    ...(argTypes.some(Boolean) ? { argTypes } : {}),
  };
}

/**
 * A range loop over a value (C++ `for (auto x : items)`) runs its iterator's operators: `!=`
 * against the end, `++` and `*` on the iterator `items.begin()` returns.
 */
function rangeCalls(range: Node): Omit<CallFact, "from">[] {
  if (range.text.length > 100 || range.text.includes("\n")) return [];
  const items = normalizeReceiver(range.text);
  const iterator = `${items}.begin()`;
  const line = range.startPosition.row + 1;
  return [
    {
      name: "operator!=",
      receiver: iterator,
      line,
      operator: true,
      args: 1,
      argTypes: [`=${items}.end()`],
    },
    { name: "operator++", receiver: iterator, line, operator: true, args: 0 },
    { name: "operator*", receiver: iterator, line, operator: true, args: 0 },
  ];
}
