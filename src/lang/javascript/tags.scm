; JavaScript (.js .mjs .cjs .jsx): definitions, calls, imports, inheritance, type hints.

; ---- definitions ------------------------------------------------------------------------------

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class

; Patterns are rooted at the declarator or the assignment, never at the statement around it: a
; pattern rooted at a statement stays alive through the statement's whole subtree and costs far more
; to match. The statement is still the definition (its line, doc and range): spec.definitionWrappers.

; const f = () => ..., const f = function () {}, var g = function* () {}: named by the variable.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; Wrapped function values: const f = (() => ...), const f = (x => x).
(variable_declarator
  name: (identifier) @name
  value: (parenthesized_expression [(arrow_function) (function_expression)])) @definition.function

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
  (field_definition
    property: [(property_identifier) (private_property_identifier)] @name
    value: [(arrow_function) (function_expression)]) @definition.method)

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
; app.handle = function handle() {} at file level (express style): a method of the object `app`.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @owner property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)])) @definition.function
  (#not-any-of? @owner "exports" "module" "window" "globalThis"))
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
; Base.cursor = { hide() {}, show: function () {} } at file level: such an object belonging to
; Base (Base.cursor.hide(), `var cursor = Base.cursor; cursor.show()`); exports.api = {...} one of
; the module's own.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @owner property: (property_identifier) @name)
      right: (object [(method_definition)
        (pair value: [(arrow_function) (function_expression) (generator_function)])])) @definition.module)
  (#not-any-of? @owner "exports" "module" "window" "globalThis"))
((assignment_expression
  left: (member_expression object: (identifier) @_exports property: (property_identifier) @name)
  right: (object [(method_definition)
    (pair value: [(arrow_function) (function_expression) (generator_function)])])) @definition.module
  (#eq? @_exports "exports"))
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
  right: [(identifier) @export.default (class name: (identifier) @export.default)])
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
; Named class expressions: module.exports = class X extends Y {...}, const A = class B {}.
(class name: (identifier) @name) @definition.class
; export default class X / function f / value: what `import x from` binds.
(export_statement "default" declaration: [(class_declaration name: (_) @export.default)
  (function_declaration name: (_) @export.default)])
(export_statement "default" value: (identifier) @export.default)

; ---- calls ------------------------------------------------------------------------------------

; f(), f`tpl`
(call_expression function: (identifier) @name) @reference.call
; obj.m(), this.m(), super.m(), a.b.c(), obj?.m(), this.#m()
((call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
  (#not-eq? @receiver "exports"))
; exports.f() in a CommonJS module calls its own exports.f = function () {}: the file's f.
((call_expression
  function: (member_expression object: (identifier) @_exports property: (property_identifier) @name))
  @reference.call
  (#eq? @_exports "exports"))

; new Foo(), new mod.Foo()
(new_expression constructor: (identifier) @name) @reference.new
(new_expression
  constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.new

; JSX components render as calls: <Foo />, <ui.Button>; lower-case tags are DOM elements.
((jsx_opening_element name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
(jsx_opening_element
  name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call

; super(...) in a constructor constructs the base class, linked like `new Base()` (the resolver
; finds the enclosing class's base: spec.superNames).
(call_expression function: (super) @name) @reference.super

; ---- inheritance ------------------------------------------------------------------------------

(class_declaration (class_heritage [(identifier) (member_expression)] @reference.extends))
(class (class_heritage [(identifier) (member_expression)] @reference.extends))

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
; import('./lazy')
(call_expression function: (import) arguments: (arguments . (string) @import.source)) @import

; JSDoc `@typedef {import('./x')} X`: a type-only import (spec.ts docImports reads the comment).
((comment) @doc.imports
  (#match? @doc.imports "@typedef"))

; ---- type hints -------------------------------------------------------------------------------

; const x = make(), const x = a.b, const f = g, this.x = y.z(): typed on demand from the value.
(variable_declarator
  name: (identifier) @hint.var
  value: (_) @hint.value) @hint
(assignment_expression
  left: [(identifier) (member_expression)] @hint.var
  right: (_) @hint.value) @hint

; destructured values: const { client, name: n } = this -- client holds this.client (not an import's:
; `const { x } = require("./m")`, `await import("./m")` are imports, read above)
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
; Compiler.prototype.push = push: the class's instances have a field push holding that function
; (this.push() in its methods and its subclasses' calls it).
((assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @hint.owner property: (property_identifier) @_proto)
    property: (property_identifier) @hint.var)
  right: [(identifier) (member_expression)] @hint.value) @hint
  (#eq? @_proto "prototype"))

; for (const u of users): u holds an element of users (users[0]).
(for_in_statement left: (identifier) @hint.var "of" right: (_) @hint.value @hint.element) @hint

; const x = new Foo(), this.x = new Foo(), x = new mod.Foo()
(variable_declarator
  name: (identifier) @hint.var
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.type)) @hint
(assignment_expression
  left: [(identifier) (member_expression)] @hint.var
  right: (new_expression constructor: [(identifier) (member_expression)] @hint.type)) @hint
; class field initialised with a constructor: cache = new Cache()
(field_definition
  property: [(property_identifier) (private_property_identifier)] @hint.var
  value: (new_expression constructor: [(identifier) (member_expression)] @hint.type)) @hint

; Decorators run where the decorated definition is made (see spec.ts: @decorator).
(decorator) @decorator

; `return inner`: the function a call of this one hands back (spec.ts: @return.value).
(return_statement (identifier) @return.value)
