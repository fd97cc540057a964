/**
 * Kotlin's scope functions: `x.apply { m() }`, `x.run { m() }` and `with(x) { m() }` run their
 * lambda with `x` as its receiver (`this`); `x.also { it.m() }`, `x.let { v -> v.m() }` pass `x`
 * as the lambda's parameter. The analyzer reads them off calls the query already matched (the
 * scope function's own call), so no query pattern is added for them.
 */
import type { Node } from "web-tree-sitter";
import type { ScopeLambda } from "../spec.ts";

/** The lambda's receiver is the value. */
const RECEIVER = new Set(["apply", "run", "with"]);
/** The lambda's one parameter is the value. */
const PARAMETER = new Set(["also", "let", "takeIf", "takeUnless"]);

/** The trailing lambda of a scope-function call and the value it runs on, if `call` is one. */
export function scopeLambda(call: Node, name: string): ScopeLambda | undefined {
  const as = RECEIVER.has(name) ? "this" : PARAMETER.has(name) ? "it" : undefined;
  if (!as) return undefined;
  // `x.apply { }`: the call node is (navigation_expression x apply) (annotated_lambda ...);
  // `x.run() { }`, `with(x) { }`: the lambda follows an inner call with the arguments.
  let outer: Node | null = call;
  let callee = call.child(0);
  if (!callee) return undefined;
  let args: Node | undefined;
  if (callee.type === "call_expression") {
    args = callee.children.find((c) => c?.type === "value_arguments") ?? undefined;
    callee = callee.child(0);
  } else {
    args = call.children.find((c) => c?.type === "value_arguments") ?? undefined;
    // The query matched the inner call of `with(x) { }`: its lambda is the parent's.
    if (outer.parent?.type === "call_expression" && outer.parent.child(0)?.id === outer.id) {
      outer = outer.parent;
    }
  }
  const lambda = outer.children.find((c) => c?.type === "annotated_lambda")?.namedChild(0);
  if (!callee || !lambda || lambda.type !== "lambda_literal") return undefined;
  let value: Node | null | undefined;
  if (callee.type === "navigation_expression") {
    if (callee.lastChild?.text !== name || name === "with") return undefined;
    value = callee.child(0);
  } else if (callee.type === "identifier" && name === "with") {
    value = args?.namedChildren.find((c) => c?.type === "value_argument")?.namedChild(0);
  }
  if (!value || value.text.length > 200) return undefined;
  const params = lambda.children.find((c) => c?.type === "lambda_parameters");
  let param: string | undefined;
  if (as === "it") {
    const declared = params?.namedChildren ?? [];
    if (declared.length > 1) return undefined;
    const single = declared[0]?.type === "variable_declaration" ? declared[0].namedChild(0) : null;
    if (declared.length && single?.type !== "identifier") return undefined;
    param = single?.text ?? "it";
  }
  return { lambda, value, as, param };
}

/**
 * Whether a lambda between a node and an enclosing scope lambda declares the parameter name
 * anew (an inner `{ it.x }` or `{ v -> }`), so the name no longer means the scope's value.
 */
export function rebinds(node: Node, lambda: Node, name: string): boolean {
  for (let n = node.parent; n && n.id !== lambda.id; n = n.parent) {
    if (n.type !== "lambda_literal") continue;
    const params = n.children.find((c) => c?.type === "lambda_parameters");
    if (!params) {
      if (name === "it") return true;
      continue;
    }
    if (params.text.split(/[,\s:()]+/).includes(name)) return true;
  }
  return false;
}

/**
 * The expression that gives an `if` or `when` its value (Kotlin `fun f() = if (c) a() else b()`):
 * the last branch's last expression, as every branch has the expression's type.
 */
export function branchValue(node: Node): Node {
  let at = node;
  for (let i = 0; i < 4; i++) {
    let next: Node | null | undefined;
    if (at.type === "if_expression") {
      const branches = at.children;
      const i = branches.findIndex((c) => c?.type === "else");
      next = i >= 0 ? branches[i + 1] : undefined;
    } else if (at.type === "when_expression") {
      const entry = at.namedChildren.filter((c) => c?.type === "when_entry").pop();
      next = entry?.namedChildren.filter((c) => c && !c.type.endsWith("comment")).pop();
    } else if (at.type === "block" || at.type === "control_structure_body") {
      next = at.namedChildren.filter((c) => c && !c.type.endsWith("comment")).pop();
    } else return at;
    if (!next) return at;
    at = next;
  }
  return at;
}
