; Python: definitions, calls, imports, inheritance, type hints.

(function_definition name: (identifier) @name) @definition.function
; `@overload` / `@typing.overload` stubs are signatures of the implementation that follows.
(decorated_definition
  (decorator [(identifier) (attribute)] @_overload)
  definition: (function_definition) @definition.skip
  (#match? @_overload "(^|\\.)overload$"))
(class_definition name: (identifier) @name) @definition.class

(class_definition
  superclasses: (argument_list [(identifier) (attribute)] @reference.extends))
; class Repo(Base[T]), class C(Generic[T], mod.Base[int]): the subscripted base
(class_definition
  superclasses: (argument_list (subscript value: [(identifier) (attribute)] @reference.extends)))

; calls: f(x), obj.m(x), pkg.mod.f(x)
(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call

; import a.b / import a.b as c
(import_statement name: (dotted_name) @import.source) @import
(import_statement name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.alias)) @import

; from a.b import c, d as e / from . import c / from a import *
(import_from_statement module_name: (_) @import.source name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.source
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.source (wildcard_import) @import.wildcard) @import

; x: Foo = ..., def f(x: Foo); x = Foo(...), self.x = make(), x = other.attr, f = func: the value
; is typed on demand (a constructor, a function's declared return type, a field, a function value).
(assignment left: [(identifier) (attribute)] @hint.var
  right: [(call) (attribute) (identifier) (await)] @hint.value) @hint
; ib = attr = attrib: each name holds the next one's value.
(assignment left: (identifier) @hint.var right: (assignment left: (identifier) @hint.value)) @hint
(assignment left: [(identifier) (attribute)] @hint.var type: (type) @hint.type) @hint
(typed_parameter (identifier) @hint.var type: (type) @hint.type) @hint
(typed_default_parameter name: (identifier) @hint.var type: (type) @hint.type) @hint
; for x in xs, [f(x) for x in xs]: x holds an element of xs (xs[0]).
(for_statement left: (identifier) @hint.var right: (_) @hint.value @hint.element) @hint
(for_in_clause left: (identifier) @hint.var right: (_) @hint.value @hint.element) @hint
; with Client() as client: client holds the context manager's value (what __enter__ returns,
; `self` for most: a client, a file, a session)
(with_item
  value: (as_pattern
    . [(call) (attribute) (identifier) (await)] @hint.value
    alias: (as_pattern_target (identifier) @hint.var))) @hint

; Decorators run where the decorated definition is made (see spec.ts: @decorator).
(decorator) @decorator

; `return inner`: the function a call of this one hands back (spec.ts: @return.value).
(return_statement (identifier) @return.value)
