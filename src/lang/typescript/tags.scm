; TypeScript (.ts .mts .cts; tsx.scm adds JSX for .tsx): definitions, calls, imports, inheritance,
; type hints.

; ---- definitions ------------------------------------------------------------------------------

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
; namespace A {}, namespace A.B {}, module A {} (not `declare module "pkg"`); type aliases are no symbols.
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.module
(module name: [(identifier) (nested_identifier)] @name) @definition.module

; Patterns are rooted at the declarator or the assignment, never at the statement around it: a
; pattern rooted at a statement stays alive through the statement's whole subtree and costs far more
; to match. The statement is still the definition (its line, doc and range): spec.definitionWrappers.

; const f = () => ..., const f = function () {}, var g = function* () {}: named by the variable.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; Wrapped function values: const f = (() => ...), const f = (x => x) as Handler.
(variable_declarator
  name: (identifier) @name
  value: [(parenthesized_expression [(arrow_function) (function_expression)])
    (as_expression [(arrow_function) (function_expression)])
    (satisfies_expression [(arrow_function) (function_expression)])]) @definition.function

; React components wrapped at definition: const Row = memo((props) => ...), React.forwardRef(...)
((variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: [(identifier) (member_expression)] @_wrapper
    arguments: (arguments . [(arrow_function) (function_expression)]))) @definition.function
  (#match? @_wrapper "^(React\\.)?(memo|forwardRef)$"))

; const Foo = class extends Bar {}
(variable_declarator name: (identifier) @name value: (class)) @definition.class

; Methods (constructor, getters and setters included) and arrow-function fields of a class.
(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body
  (public_field_definition
    name: [(property_identifier) (private_property_identifier)] @name
    value: [(arrow_function) (function_expression)]) @definition.method)
; abstract m(): T; and interface members m(): T
(class_body
  (abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(interface_body (method_signature name: (property_identifier) @name) @definition.method)

; CommonJS and pre-class JavaScript: exports.f = function () {}, Foo.prototype.m = function () {}.
((assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @definition.function
  (#eq? @_exports "exports"))
((assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @definition.function
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
((assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @owner property: (property_identifier) @_proto)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @definition.function
  (#eq? @_proto "prototype"))

; Object literals bound to a name that hold functions are namespace-like objects (kind module);
; their function-valued members are their methods: const api = { get() {}, post: () => {} }.
(variable_declarator
  name: (identifier) @name
  value: (object [(method_definition)
    (pair value: [(arrow_function) (function_expression) (generator_function)])])) @definition.module
; Members of any object literal: { send(data) {...} }, { message: (x) => ... } (also objects passed
; as arguments: their functions are callers of their own).
(object (method_definition name: [(property_identifier) (string)] @name) @definition.function)
(pair
  key: [(property_identifier) (string)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; handler = (x) => {...} assigned to a declared variable: a function of that name.
(assignment_expression
  left: (identifier) @name
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; obj.handler = function () {}, this.cb = () => {} anywhere (file-level forms above win).
(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; Named function expressions that no binding names: return function basicAuth() {}, f(function g() {}).
(return_statement (function_expression name: (identifier) @name) @definition.function)
(arguments (function_expression name: (identifier) @name) @definition.function)
(parenthesized_expression (function_expression name: (identifier) @name) @definition.function)
; module.exports = X, module.exports = class X {...}: the default export of a CommonJS module.
((assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: [(identifier) @export.default (class name: (type_identifier) @export.default)])
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
; Named class expressions: module.exports = class X extends Y {...}, const A = class B {}.
(class name: (type_identifier) @name) @definition.class
; export default class X / function f / value: what `import x from` binds.
(export_statement "default" declaration: [(class_declaration name: (_) @export.default)
  (function_declaration name: (_) @export.default)])
(export_statement "default" value: (identifier) @export.default)

; ---- calls ------------------------------------------------------------------------------------

; f(), f`tpl`
(call_expression function: (identifier) @name) @reference.call
; obj.m(), this.m(), super.m(), a.b.c(), obj?.m(), this.#m()
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call

; new Foo(), new mod.Foo()
(new_expression constructor: (identifier) @name) @reference.new
(new_expression
  constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.new

; super(...) in a constructor constructs the base class, linked like `new Base()` (the resolver
; finds the enclosing class's base: spec.superNames).
(call_expression function: (super) @name) @reference.super

; ---- inheritance ------------------------------------------------------------------------------

; class A extends B<T> implements I, mod.J<T>; interface I extends J, K<T>
(class_heritage (extends_clause value: [(identifier) (member_expression)] @reference.extends))
(class_heritage
  (implements_clause [(type_identifier) (nested_type_identifier)] @reference.implements))
(class_heritage
  (implements_clause
    (generic_type name: [(type_identifier) (nested_type_identifier)] @reference.implements)))
(extends_type_clause type: [(type_identifier) (nested_type_identifier)] @reference.extends)
(extends_type_clause
  type: (generic_type name: [(type_identifier) (nested_type_identifier)] @reference.extends))

; ---- imports ----------------------------------------------------------------------------------

; import x from './a'  (name "default": the same node as name and alias, see spec.normalizeImport)
(import_statement
  (import_clause (identifier) @import.name @import.alias)
  source: (string) @import.source) @import
; import {a} from './a' / import {b as c} from './a'
(import_statement
  (import_clause (named_imports (import_specifier !alias name: _ @import.name)))
  source: (string) @import.source) @import
((import_statement
  (import_clause (named_imports (import_specifier name: _ @import.name alias: (identifier) @import.alias)))
  source: (string) @import.source) @import
  (#not-eq? @import.name @import.alias))
; import * as ns from './a'
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string) @import.source) @import
; import './side'
(import_statement . (string) @import.source) @import

; Re-exports, so the resolver can follow them: export {x, y as z} from './y', export * from './y',
; export * as ns from './y'.
(export_statement
  (export_clause (export_specifier !alias name: _ @import.name))
  source: (string) @import.source) @import
(export_statement
  (export_clause (export_specifier name: _ @import.name alias: _ @import.alias))
  source: (string) @import.source) @import
(export_statement
  (namespace_export (_) @import.alias)
  source: (string) @import.source) @import
(export_statement
  "*" @import.wildcard
  source: (string) @import.source) @import

; CommonJS: const x = require('./a'), const {a, b: c} = require('./a'), const x = require('./a').f,
; require('./side')
; `const x = require('./a')` binds what the module exports: its `module.exports = X` (the default,
; as for `import x from`), else the module object (`x.f()` still reaches its `exports.f`).
((variable_declarator
  name: (identifier) @import.alias @import.name
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source))) @import
  (#eq? @_require "require"))
((variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source))) @import
  (#eq? @_require "require"))
((variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias))
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source))) @import
  (#eq? @_require "require"))
((variable_declarator
  name: (identifier) @import.alias
  value: (member_expression
    object: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source))
    property: (property_identifier) @import.name)) @import
  (#eq? @_require "require")
  (#not-eq? @import.alias @import.name))
((variable_declarator
  name: (identifier) @_local
  value: (member_expression
    object: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source))
    property: (property_identifier) @import.name)) @import
  (#eq? @_require "require")
  (#eq? @_local @import.name))
((expression_statement
  (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source))) @import
  (#eq? @_require "require"))
; import x = require('./a')
(import_statement
  (import_require_clause (identifier) @import.alias source: (string) @import.source)) @import
; import('./lazy')
(call_expression function: (import) arguments: (arguments . (string) @import.source)) @import

; ---- type hints -------------------------------------------------------------------------------

; The declared type first: it wins over the constructor in `const x: Base = new Impl()`.
; let x: Foo, let x: mod.Foo<T>
(variable_declarator
  name: (identifier) @hint.var
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type)) @hint
; parameters (x: Foo), (x?: Foo)
(required_parameter
  pattern: (identifier) @hint.var
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type)) @hint
(optional_parameter
  pattern: (identifier) @hint.var
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type)) @hint
; destructured props with an inline type: ({ invoice }: { invoice: Invoice })
((required_parameter
  pattern: (object_pattern (shorthand_property_identifier_pattern) @hint.var)
  type: (type_annotation
    (object_type
      (property_signature
        name: (property_identifier) @_prop
        type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type))))) @hint
  (#eq? @hint.var @_prop))
; destructured parameters of a named type: ({ gen, char: c }: ParseCxt) -- gen is ParseCxt's gen
(required_parameter
  pattern: (object_pattern
    [(shorthand_property_identifier_pattern) @hint.var @hint.field
     (object_assignment_pattern left: (shorthand_property_identifier_pattern) @hint.var @hint.field)
     (pair_pattern key: (property_identifier) @hint.field value: (identifier) @hint.var)
     (pair_pattern
       key: (property_identifier) @hint.field
       value: (assignment_pattern left: (identifier) @hint.var))])
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type)) @hint
; destructured values: const { gen, data: d } = cxt -- gen holds cxt.gen, d holds cxt.data (not an
; import's: `const { x } = await import("./m")`, `require("./m")` are imports, read above)
((variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @hint.var @hint.field
     (object_assignment_pattern left: (shorthand_property_identifier_pattern) @hint.var @hint.field)
     (pair_pattern key: (property_identifier) @hint.field value: (identifier) @hint.var)
     (pair_pattern
       key: (property_identifier) @hint.field
       value: (assignment_pattern left: (identifier) @hint.var))])
  value: (_) @hint.value) @hint
  (#not-match? @hint.value "^(await\\s+)?(import|require)\\s*\\("))
; const x = make(), const x = a.b, const f = g, this.x = y.z(): typed on demand from the value.
(variable_declarator
  name: (identifier) @hint.var
  value: (_) @hint.value) @hint
(assignment_expression
  left: [(identifier) (member_expression)] @hint.var
  right: (_) @hint.value) @hint
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @hint.var
  value: (_) @hint.value) @hint
; for (const u of users): u holds an element of users (users[0]).
(for_in_statement left: (identifier) @hint.var "of" right: (_) @hint.value @hint.element) @hint

; const x = new Foo(), this.x = new Foo(), x = new mod.Foo()
(variable_declarator
  name: (identifier) @hint.var
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.type)) @hint
(assignment_expression
  left: [(identifier) (member_expression)] @hint.var
  right: (new_expression constructor: [(identifier) (member_expression)] @hint.type)) @hint

; An interface's properties type what reads them (cxt.gen, const { gen } = cxt): interface X { gen: G }
(interface_body
  (property_signature
    name: (property_identifier) @hint.var
    type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type)) @hint)

; Class fields hold for the whole class (scope = the class): private repo: Repo, cache = new Cache(),
; and constructor parameter properties constructor(private repo: Repo) (the hint sits on the class
; body, so its scope is the class rather than the constructor).
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @hint.var
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type)) @hint
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @hint.var
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.type)) @hint
(class_body
  (method_definition
    name: (property_identifier) @_constructor
    parameters: (formal_parameters
      [(required_parameter
         pattern: (identifier) @hint.var
         type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type))
       (optional_parameter
         pattern: (identifier) @hint.var
         type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type) (array_type)] @hint.type))]
      @_param))
  (#eq? @_constructor "constructor")
  (#match? @_param "(^|\\s)(public|private|protected|readonly)\\s")) @hint

; Decorators run where the decorated definition is made (see spec.ts: @decorator).
(decorator) @decorator

; `return inner`: the function a call of this one hands back (spec.ts: @return.value).
(return_statement (identifier) @return.value)
