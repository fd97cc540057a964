#!/usr/bin/env python3
"""Python call-graph oracle resolved by jedi (see bench/accuracy/FORMAT.md).

Usage:
    pip install jedi==0.20.1
    python3 bench/accuracy/oracles/python_jedi.py --root DIR --out FILE \
        [--include relDir ...] [--exclude relDir ...]

Python 3.11, stdlib + jedi only.

How it works
------------
* Collects the .py files under --root (only under the --include dirs when given; skipping
  .venv, venv, build, dist, node_modules, .tox, .git, __pycache__ and the --exclude dirs).
* defs come from each file's `ast`: every FunctionDef/AsyncFunctionDef (kind "method" when it
  sits directly in a class body, else "function"; `__init__` is a method). `@overload` stubs are
  not defs: the implementation that follows them is (or the first stub when none follows).
  Lambdas are never defs, even when bound to a name (Python names them `<lambda>`).
* calls: for every ast.Call whose callee is a Name or an Attribute, jedi's
  `Script.goto(line, col, follow_imports=True, follow_builtin_imports=False)` is asked at the
  callee name token. The definitions it returns are mapped:
    - function / method in the analysed files -> `calls` to its def line (an overload stub is
      mapped to its implementation);
    - class in the analysed files -> the `__init__` found through the class's MRO (C3 over the
      bases jedi infers); the first class in the MRO that defines `__init__` wins: a class in
      the analysed files gives a `calls` entry, a library/builtin class (other than `object`)
      or no `__init__` at all gives an `instantiates` entry; an MRO that reaches a base jedi
      cannot infer (missing dependency) before any `__init__` is `unresolved`;
    - a variable (goto gives a statement/param) -> `Script.infer` at the same token, mapped the
      same way (e.g. `k = some_func; k()`, `cls(...)` in a classmethod);
    - anything outside the analysed files (stdlib, dependencies, builtins, typeshed) -> known,
      left out;
    - property (calling the value a property returns), instances (`__call__`), lambdas and
      other values that are not defs in the analysed files -> `unresolved`.
  Several definitions: when they all map into the analysed files and there are at most 2
  distinct targets, each is emitted (same site, one entry per target); when they all lie
  outside, the call is known-external; otherwise (mix, or more than 2) the call is unresolved.
  Nothing from goto (nor from infer) -> unresolved.
  Callees that are not a Name/Attribute (`f()()`, `handlers[k]()`) are unresolved, named by the
  last identifier in the callee expression (skipped when there is none, e.g. `(lambda: 0)()`).
* caller: innermost enclosing named def; lambdas and comprehensions are transparent; class body
  code outside methods -> the class line; module level -> path:0. Decorators, default values,
  annotations and class bases/keywords are evaluated in the enclosing scope (Python semantics),
  so their calls belong to the enclosing def/class/module, not to the decorated def.
* goto that stops on an import line (seen where a package ships .pyi stubs beside its
  __init__.py, e.g. attrs) falls back to infer, accepting only a def of the same name; a target
  that lands in a .pyi stub of the analysed tree cannot be mapped to a .py def: unresolved.
* Calls are resolved in one jedi.Script per file; a call left unresolved there is asked once
  more in a fresh Script, because jedi's per-Script caches can keep empty results from an
  earlier look-up that hit jedi's recursion/execution limits (seen in jinja: ~900 calls).
  jedi runs in-process (InterpreterEnvironment): same results, ~3x faster than its subprocess.
* jedi's dynamic parameter inference (guessing a parameter's type from call sites) is turned
  off: an unannotated parameter is unknown, as for a type checker.
* sys.path: root and root/src (src-layout), when it holds packages, come BEFORE the interpreter's
  site-packages, so the analysed packages shadow an installed copy of themselves
  (`added_sys_path` would put them after site-packages).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
import time
from pathlib import Path

import jedi
from jedi.api.environment import InterpreterEnvironment

SKIP_DIRS = {".venv", "venv", "build", "dist", "node_modules", ".tox", ".git", "__pycache__",
             ".nox", ".mypy_cache", ".pytest_cache", "site-packages"}
MAX_TARGETS = 2

jedi.settings.dynamic_params = False
jedi.settings.dynamic_params_for_other_modules = False


# --------------------------------------------------------------------------------------------
# file collection


def collect_files(root: Path, includes: list[str], excludes: list[str]) -> list[str]:
    root = root.resolve()
    excl = {os.path.normpath(e).strip("/") for e in excludes}
    starts = [root / i for i in includes] if includes else [root]
    out: set[str] = set()
    for start in starts:
        if start.is_file() and start.suffix == ".py":
            out.add(start.relative_to(root).as_posix())
            continue
        for dirpath, dirnames, filenames in os.walk(start):
            rel_dir = Path(dirpath).relative_to(root).as_posix()
            keep = []
            for d in dirnames:
                rel = d if rel_dir == "." else f"{rel_dir}/{d}"
                if d in SKIP_DIRS or rel in excl:
                    continue
                keep.append(d)
            dirnames[:] = sorted(keep)
            for f in filenames:
                if not f.endswith(".py"):
                    continue
                rel = f if rel_dir == "." else f"{rel_dir}/{f}"
                if rel in excl:
                    continue
                out.add(rel)
    return sorted(out)


def src_dirs(root: Path) -> list[str]:
    dirs = [str(root)]
    src = root / "src"
    if src.is_dir() and any(
        (p / "__init__.py").is_file() or p.suffix == ".py" for p in src.iterdir()
    ):
        dirs.insert(0, str(src))
    return dirs


# --------------------------------------------------------------------------------------------
# AST index: defs, classes, call sites with their caller


def _decorator_names(node) -> set[str]:
    names = set()
    for d in node.decorator_list:
        while isinstance(d, ast.Call):
            d = d.func
        if isinstance(d, ast.Attribute):
            names.add(d.attr)
        elif isinstance(d, ast.Name):
            names.add(d.id)
    return names


def _is_overload(node) -> bool:
    return "overload" in _decorator_names(node)


def last_identifier(expr) -> str | None:
    while True:
        if isinstance(expr, ast.Name):
            return expr.id
        if isinstance(expr, ast.Attribute):
            return expr.attr
        if isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Starred):
            expr = expr.value
        else:
            return None


class FileIndex:
    """defs / classes / call sites of one file."""

    def __init__(self, rel: str, source: str):
        self.rel = rel
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.tree = ast.parse(source, filename=rel)
        self.defs: dict[int, tuple[str, str]] = {}      # line -> (name, kind)
        self.overload_map: dict[int, int] = {}          # stub line -> implementation line
        self.classes: dict[int, ast.ClassDef] = {}      # line -> node
        self.class_init: dict[int, int] = {}            # class line -> __init__ def line
        self.class_methods: dict[int, dict[str, int]] = {}
        self.calls: list[tuple[ast.Call, int]] = []     # (call node, caller line; 0 = module)
        self.property_defs: set[int] = set()
        self.lambda_lines: set[int] = {n.lineno for n in ast.walk(self.tree) if isinstance(n, ast.Lambda)}
        self._scan_defs(self.tree.body, in_class=None)
        self._walk(self.tree, owner=0)

    # -- defs ---------------------------------------------------------------------------------
    def _scan_defs(self, body, in_class):
        """Register defs of one scope (and recurse); resolve @overload groups per scope."""
        funcs = []
        for stmt in self._scope_stmts(body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs.append(stmt)
                self._scan_defs(stmt.body, in_class=None)
            elif isinstance(stmt, ast.ClassDef):
                self.classes[stmt.lineno] = stmt
                self._scan_defs(stmt.body, in_class=stmt)
        # overload groups by name, in source order
        by_name: dict[str, list] = {}
        for f in funcs:
            by_name.setdefault(f.name, []).append(f)
        kind = "method" if in_class is not None else "function"
        for name, group in by_name.items():
            pending: list = []
            for f in group:
                if _is_overload(f):
                    pending.append(f)
                    continue
                self.defs[f.lineno] = (name, kind)
                for stub in pending:
                    self.overload_map[stub.lineno] = f.lineno
                pending = []
                if "property" in _decorator_names(f) or "cached_property" in _decorator_names(f):
                    self.property_defs.add(f.lineno)
            if pending:  # stubs with no implementation: the first one stands for all
                first = pending[0]
                self.defs[first.lineno] = (name, kind)
                for stub in pending[1:]:
                    self.overload_map[stub.lineno] = first.lineno
        if in_class is not None:
            methods = {}
            for f in funcs:
                if f.lineno in self.defs:
                    methods[f.name] = f.lineno  # last definition wins, as at run time
            self.class_methods[in_class.lineno] = methods
            if "__init__" in methods:
                self.class_init[in_class.lineno] = methods["__init__"]

    @staticmethod
    def _scope_stmts(body):
        """Statements of a scope, looking into if/try/with/for/while blocks (same scope)."""
        stack = list(reversed(body))
        while stack:
            s = stack.pop()
            yield s
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            sub = []
            for field in ("body", "orelse", "finalbody"):
                sub.extend(getattr(s, field, []) or [])
            for h in getattr(s, "handlers", []) or []:
                sub.extend(h.body)
            for c in getattr(s, "cases", []) or []:
                sub.extend(c.body)
            stack.extend(reversed([x for x in sub if isinstance(x, ast.stmt)]))

    def def_line(self, line: int) -> int | None:
        line = self.overload_map.get(line, line)
        return line if line in self.defs else None

    # -- call sites ---------------------------------------------------------------------------
    def _walk(self, node, owner):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                self._walk(d, owner)
            self._walk(node.args, owner)  # defaults and annotations: enclosing scope
            if node.returns is not None:
                self._walk(node.returns, owner)
            inner = self.def_line(node.lineno) or owner
            for s in node.body:
                self._walk(s, inner)
            return
        if isinstance(node, ast.ClassDef):
            for d in node.decorator_list:
                self._walk(d, owner)
            for b in node.bases:
                self._walk(b, owner)
            for k in node.keywords:
                self._walk(k, owner)
            for s in node.body:
                self._walk(s, node.lineno)
            return
        if isinstance(node, ast.Call):
            self.calls.append((node, owner))
        for child in ast.iter_child_nodes(node):
            self._walk(child, owner)

    # -- positions ----------------------------------------------------------------------------
    def char_col(self, line: int, byte_col: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))

    def name_pos(self, func) -> tuple[int, int, str] | None:
        """(line, char column) of the callee's name token, verified against the source."""
        if isinstance(func, ast.Name):
            line, bcol, name = func.lineno, func.col_offset, func.id
        elif isinstance(func, ast.Attribute):
            line, name = func.end_lineno, func.attr
            bcol = func.end_col_offset - len(name.encode("utf-8"))
        else:
            return None
        col = self.char_col(line, bcol)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text[col:col + len(name)] != name:
            i = text.find(name)
            if i < 0:
                return None
            col = i
        return line, col, name


# --------------------------------------------------------------------------------------------
# resolution


class Resolver:
    def __init__(self, root: Path, files: list[str], project: jedi.Project):
        self.root = root.resolve()
        self.files = set(files)
        self.project = project
        self.index: dict[str, FileIndex] = {}
        self.stats = {"goto_errors": 0, "pyi_targets": 0, "import_fallbacks": 0, "retries": 0, "retry_wins": 0}

    def rel(self, module_path) -> str | None:
        if module_path is None:
            return None
        try:
            p = Path(module_path).resolve()
            r = p.relative_to(self.root).as_posix()
        except (ValueError, OSError):
            return None
        return r if r in self.files else None

    def _is_repo_stub(self, module_path) -> bool:
        if module_path is None:
            return False
        try:
            Path(module_path).resolve().relative_to(self.root)
        except (ValueError, OSError):
            return False
        return str(module_path).endswith(".pyi")

    # class value helpers (jedi internals) ------------------------------------------------------
    def _value_rel(self, value):
        try:
            return self.rel(value.get_root_context().py__file__())
        except Exception:
            return None

    def _own_init_external(self, value) -> bool:
        """Does a class outside the analysed files define __init__ in its own body?"""
        try:
            if value.py__name__() == "object":
                return False
            node = value.tree_node
            if node is None or node.type != "classdef":
                return False
            for child in node.get_suite().children:
                if child.type == "decorated":
                    child = child.children[-1]
                if child.type in ("funcdef", "async_funcdef") or child.type == "async_stmt":
                    fn = child if child.type == "funcdef" else child.children[-1]
                    if getattr(fn, "name", None) is not None and fn.name.value == "__init__":
                        return True
        except Exception:
            return False
        return False

    def _mro(self, value, depth=0):
        """C3 linearisation of a jedi class value; unknown bases appear as None."""
        if depth > 40:
            return [value]
        bases = []
        try:
            lazies = list(value.py__bases__())
        except Exception:
            lazies = []
        for lz in lazies:
            try:
                inferred = [v for v in lz.infer()]
            except Exception:
                inferred = []
            classes = [v for v in inferred if hasattr(v, "py__mro__") and hasattr(v, "py__bases__")]
            if not inferred:
                bases.append(None)
            elif classes:
                bases.append(classes[0])
            # non-class, non-empty (Generic[T], Protocol forms...): ignored
        seqs = []
        for b in bases:
            seqs.append([None] if b is None else self._mro(b, depth + 1))
        seqs.append(list(bases))
        result = [value]
        seqs = [list(s) for s in seqs if s]

        def same(a, b):
            if a is None or b is None:
                return a is b
            return a == b or (getattr(a, "tree_node", 1) is getattr(b, "tree_node", 2)
                              and a.tree_node is not None)

        while True:
            seqs = [s for s in seqs if s]
            if not seqs:
                return result
            for s in seqs:
                cand = s[0]
                if not any(any(same(cand, x) for x in t[1:]) for t in seqs):
                    break
            else:  # inconsistent hierarchy: fall back to depth-first order
                for s in seqs:
                    for x in s:
                        if not any(same(x, r) for r in result):
                            result.append(x)
                return result
            result.append(cand)
            for s in seqs:
                if s and same(s[0], cand):
                    s.pop(0)

    @staticmethod
    def _class_values(d):
        """jedi ClassValue(s) for a class Name, built from the classdef itself: the class's
        decorators are not executed (executing e.g. attrs' `@attr.s` spends jedi's execution
        budget and leaves empty results in its caches, which then break later look-ups)."""
        from jedi.inference.value.klass import ClassValue
        name = d._name
        tn = getattr(name, "tree_name", None)
        ctx = getattr(name, "parent_context", None)
        try:
            if tn is not None and ctx is not None and tn.parent.type == "classdef":
                ctx.inference_state.reset_recursion_limitations()
                return [ClassValue(ctx.inference_state, parent_context=ctx, tree_node=tn.parent)]
            return list(name.infer())
        except Exception:
            return []

    def constructor_for(self, class_value):
        """('call', rel, line) | ('inst', rel, class line) | ('unresolved',)"""
        cls_rel = self._value_rel(class_value)
        cls_line = class_value.tree_node.name.start_pos[0]
        for v in self._mro(class_value):
            if v is None:
                return ("unresolved",)
            r = self._value_rel(v)
            if r is not None:
                idx = self.index.get(r)
                try:
                    line = v.tree_node.name.start_pos[0]
                except Exception:
                    return ("unresolved",)
                if idx is not None and line in idx.class_init:
                    return ("call", r, idx.class_init[line])
            elif self._own_init_external(v):
                break
        return ("inst", cls_rel, cls_line)

    def map_name(self, d, via_infer=False, expect_name=None):
        """Map one jedi Name -> list of targets, or 'external', or None (unresolved)."""
        t = d.type
        rel = self.rel(d.module_path)
        if via_infer and expect_name is not None and d.name != expect_name:
            # infer went through a decorator or alias (`@dataclass_transform` on `define`): the
            # value is not the named def, wherever it lies; not evidence of an outside target.
            return None
        if rel is None:
            if self._is_repo_stub(d.module_path):
                self.stats["pyi_targets"] += 1
                return None
            if t in ("statement", "param") and not via_infer:
                return "variable"
            if via_infer and t not in ("function", "class"):
                return None  # e.g. a Callable-typed parameter, a partial object
            return "external"
        if expect_name is not None and d.name != expect_name:
            return None  # re-inferred through a decorator / alias: not the named def
        if t == "function":
            idx = self.index[rel]
            line = idx.def_line(d.line)
            if line is None:
                if not via_infer and d.line not in idx.lambda_lines:
                    # goto stopped on an import (seen with packages that ship .pyi stubs
                    # next to __init__.py): ask infer instead
                    return "variable"
                return None  # lambda or something that is not a def
            return [("call", rel, line)]
        if t == "class":
            if d.line not in self.index[rel].classes:
                return "variable" if not via_infer else None
            values = self._class_values(d)
            values = [v for v in values if hasattr(v, "py__mro__") and getattr(v, "tree_node", None) is not None]
            if not values:
                return None
            out = []
            for v in values:
                res = self.constructor_for(v)
                if res[0] == "unresolved" or res[1] is None:
                    return None
                out.append(res)
            return out
        if t in ("statement", "param") and not via_infer:
            return "variable"
        # property, instance, module, keyword, ...
        return None

    def resolve(self, script, line, col):
        try:
            names = script.goto(line, col, follow_imports=True, follow_builtin_imports=False)
        except Exception:
            self.stats["goto_errors"] += 1
            names = []
        mapped = self._map_all(names, via_infer=False)
        if mapped == "variable":
            # a variable/parameter (or an import goto stopped at): what does it hold?
            expect = None
            if any(d.type in ("function", "class") for d in names):
                expect = names[0].name
                self.stats["import_fallbacks"] += 1
            try:
                inferred = script.infer(line, col)
            except Exception:
                self.stats["goto_errors"] += 1
                inferred = []
            mapped = self._map_all(inferred, via_infer=True, expect_name=expect)
            if mapped == "variable":
                mapped = None
            # A name bound in the analysed tree (`s = attributes = attrs`) whose value jedi infers
            # outside it (through a stub's decorator): jedi lost the value; not an outside call.
            if mapped == "external" and names and all(self.rel(d.module_path) for d in names):
                mapped = None
        return mapped

    def _map_all(self, names, via_infer, expect_name=None):
        if not names:
            return None
        results = [self.map_name(d, via_infer, expect_name) for d in names]
        if any(r == "variable" for r in results):
            return "variable" if len(results) == 1 else None
        if all(r == "external" for r in results):
            return "external"
        if any(r is None or r == "external" for r in results):
            return None
        targets = []
        for r in results:
            for t in r:
                if t not in targets:
                    targets.append(t)
        if len(targets) > MAX_TARGETS:
            return None
        return targets


# --------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--include", nargs="*", action="extend", default=[])
    ap.add_argument("--exclude", nargs="*", action="extend", default=[])
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    t0 = time.time()
    root = Path(args.root).resolve()
    files = collect_files(root, args.include, args.exclude)
    env = InterpreterEnvironment()  # in-process: no subprocess round trips
    here = str(Path(__file__).resolve().parent)
    sys_path = src_dirs(root) + [p for p in env.get_sys_path() if p not in ("", ".", here)]
    project = jedi.Project(root, sys_path=sys_path, smart_sys_path=True)
    res = Resolver(root, files, project)

    parse_errors = []
    for rel in files:
        try:
            source = (root / rel).read_text(encoding="utf-8")
            res.index[rel] = FileIndex(rel, source)
        except (SyntaxError, UnicodeDecodeError, ValueError) as e:
            parse_errors.append(f"{rel}: {e}")
    files = [f for f in files if f in res.index]
    res.files = set(files)

    defs, calls, insts, unresolved = [], [], [], []
    for rel in files:
        idx = res.index[rel]
        for line, (name, kind) in sorted(idx.defs.items()):
            defs.append({"path": rel, "line": line, "name": name, "kind": kind})

    for n, rel in enumerate(files, 1):
        idx = res.index[rel]
        script = jedi.Script(code=idx.source, path=str(root / rel), project=project, environment=env)
        for call, owner in idx.calls:
            caller = f"{rel}:{owner}"
            pos = idx.name_pos(call.func)
            if pos is None:
                name = last_identifier(call.func)
                if name is not None:
                    unresolved.append({"caller": caller, "name": name, "site": call.func.end_lineno})
                continue
            line, col, name = pos
            mapped = res.resolve(script, line, col)
            if mapped is None:
                # jedi caches per Script: an earlier look-up that hit jedi's recursion/execution
                # limits can leave empty results behind. Ask once more in a fresh Script.
                res.stats["retries"] += 1
                fresh = jedi.Script(code=idx.source, path=str(root / rel), project=project, environment=env)
                mapped = res.resolve(fresh, line, col)
                if mapped is not None:
                    res.stats["retry_wins"] += 1
            if mapped == "external":
                continue
            if mapped is None:
                unresolved.append({"caller": caller, "name": name, "site": line})
                continue
            for kind, trel, tline in mapped:
                if kind == "call":
                    calls.append({"caller": caller, "callee": f"{trel}:{tline}", "site": line})
                else:
                    insts.append({"caller": caller, "class": f"{trel}:{tline}", "site": line})
        if not args.quiet:
            print(f"[{n}/{len(files)}] {rel} {time.time() - t0:.1f}s", file=sys.stderr)

    key = lambda e: (e["caller"].rsplit(":", 1)[0], int(e["caller"].rsplit(":", 1)[1]), e["site"],
                     json.dumps(e, sort_keys=True))
    doc = {
        "oracle": f"jedi {jedi.__version__}",
        "language": "python",
        "root": str(root),
        "files": files,
        "defs": defs,
        "calls": sorted(calls, key=key),
        "instantiates": sorted(insts, key=key),
        "unresolved": sorted(unresolved, key=key),
    }
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(
        f"files={len(files)} defs={len(defs)} calls={len(calls)} instantiates={len(insts)} "
        f"unresolved={len(unresolved)} parse_errors={len(parse_errors)} "
        f"goto_errors={res.stats['goto_errors']} pyi={res.stats['pyi_targets']} "
        f"import_fallbacks={res.stats['import_fallbacks']} retries={res.stats['retries']} "
        f"retry_wins={res.stats['retry_wins']} "
        f"time={time.time() - t0:.1f}s",
        file=sys.stderr,
    )
    for e in parse_errors:
        print(f"parse error: {e}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
