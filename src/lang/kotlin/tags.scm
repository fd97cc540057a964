; Kotlin: definitions, calls, imports, inheritance, type hints.

(package_header (qualified_identifier) @package)

; ---------------------------------------------------------------------------------------------
; Definitions. `enum class` -> enum, `interface` / `fun interface` -> interface, other classes and
; `object`s -> class. Companion objects are not definitions: their functions become members of the
; enclosing class, so `Foo.create()` and a bare `create()` inside Foo find them. They are
; class-level (`@static`): no value of the class has them, and `Foo(x)` may call the companion's
; `operator fun invoke(x)`.

(class_declaration (modifiers)? @_mods "class" name: (identifier) @name
  (#not-match? @_mods "(^|\\s)enum(\\s|$)")) @definition.class
(class_declaration "class" name: (identifier) @name (enum_class_body)) @definition.enum
(class_declaration "interface" name: (identifier) @name) @definition.interface
(object_declaration name: (identifier) @name) @definition.class

; Functions: top level, in class / object / companion / enum bodies, and local functions. Functions
; of anonymous objects (`object : Runnable { ... }`) are not definitions (their calls belong to the
; enclosing named function). `fun Foo.bar()` is an extension: owned by Foo (`Foo.bar`).
(source_file
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name) @definition.function)
(class_declaration (class_body
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name) @definition.function))
(class_declaration (enum_class_body
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name) @definition.function))
(object_declaration (class_body
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name) @definition.function))
(companion_object (class_body
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name @static) @definition.function))
(block
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name) @definition.function)

; Secondary constructors: methods named like the class (as Java constructors are).
(class_declaration name: (identifier) @name (class_body (secondary_constructor) @definition.method))

; Error recovery. Where the grammar trips over a construct it does not know (a `when` guard, a soft
; keyword used as a name), tree-sitter wraps the enclosing declaration in an ERROR node whose
; children are the declaration's tokens and members, without a class_declaration or class_body.
; The members still count: an ERROR that starts with a class, interface or object header (after
; annotations and modifiers) is that type, and functions directly inside an ERROR are its methods
; (or top-level functions when the ERROR is no type). A file-level ERROR (the whole file, package
; header included) is its first type. Only the erroneous construct is lost.
((ERROR . (modifiers)? . "class" . (identifier) @name) @definition.class
  (#match? @definition.class "^(@[^\\n]*\\s+|[a-z]+\\s+)*class\\s"))
((ERROR . (modifiers)? . "interface" . (identifier) @name) @definition.interface
  (#match? @definition.interface "^(@[^\\n]*\\s+|[a-z]+\\s+)*interface\\s"))
((ERROR . (modifiers)? . "object" . (identifier) @name) @definition.class
  (#match? @definition.class "^(@[^\\n]*\\s+|[a-z]+\\s+)*object\\s"))
(ERROR (package_header) "class" . (identifier) @name) @definition.class
(ERROR (package_header) "object" . (identifier) @name) @definition.class
(ERROR
  (function_declaration [(user_type) (nullable_type)]? @owner . name: (identifier) @name) @definition.function)
(ERROR "class" . (identifier) @name (secondary_constructor) @definition.method)

; ---------------------------------------------------------------------------------------------
; Calls. `Foo()` is a plain call (the resolver links a call of a type name to the type).

; f(x), f<T>(x), f { ... }
(call_expression . (identifier) @name) @reference.call

; obj.m(), obj?.m(), this.m(), super.m(), Type.m(), pkg.f(), a.b().c(), list.forEach { ... }
; The receiver is kept as written; receivers the resolver cannot type (`a.b()`) fall back to
; name-based resolution instead of being mistaken for a call on `this`.
(call_expression . (navigation_expression
  . [
    (identifier) (navigation_expression) (call_expression) (this_expression) (super_expression)
    (parenthesized_expression) (index_expression) (string_literal) (multiline_string_literal)
    (character_literal) (number_literal) (float_literal) (collection_literal) (lambda_literal)
    (object_literal) (anonymous_function) (callable_reference) (if_expression) (when_expression)
    (try_expression) (labeled_expression) (annotated_expression)
  ] @receiver
  . (identifier) @name .)
  (#not-match? @receiver "^(this@|super\\s*<)")) @reference.call
; this@Outer.m(): a member of Outer; super<Base>.m(): a member of Base.
(call_expression . (navigation_expression
  . (this_expression (identifier) @receiver) . (identifier) @name .)) @reference.call
(call_expression . (navigation_expression
  . (super_expression (user_type (identifier) @receiver .)) . (identifier) @name .)) @reference.call
; The grammar binds prefix operators tighter than `.`: `!a.isX()` parses as `(!a).isX()`, and
; `a!!.m()` as a unary expression too. The receiver is the operand.
(call_expression . (navigation_expression
  . (unary_expression argument: (_) @receiver) . (identifier) @name .)) @reference.call

; Infix calls: `a and b` calls `a.and(b)`.
(infix_expression . (_) @receiver . (identifier) @name . (_) .) @reference.call

; Callable references: ::f, Foo::bar, this::bar, obj::bar.
(callable_reference . (identifier) @name . (#not-eq? @name "class")) @reference.call
(navigation_expression . (_) @receiver . "::" . (identifier) @name . (#not-eq? @name "class"))
  @reference.call

; `class A : B(x)`: the primary constructor calls B's constructor.
(delegation_specifier (constructor_invocation (user_type (identifier) @name .)) @reference.super)
(delegation_specifier (constructor_invocation (user_type (identifier) @name . (type_arguments))) @reference.super)

; ---------------------------------------------------------------------------------------------
; Imports. `import a.b.C` is split by spec.normalizeImport into source `a.b`, name `C`.

((import (qualified_identifier) @import.source .) @import (#not-match? @import "\\*"))
(import (qualified_identifier) @import.source (identifier) @import.alias) @import
(import (qualified_identifier) @import.source "*" @import.wildcard) @import

; ---------------------------------------------------------------------------------------------
; Inheritance. `B(...)` in a class header is a superclass; a plain type is an interface or a
; class (`inherits`: the target's kind decides). An interface's supertypes are interfaces: extends.

; The type as written, qualified and with its type arguments (`ContextReceivable.Builder<Builder>`:
; the nested interface, not a `Builder` nearer by).
(class_declaration "class" (delegation_specifiers (delegation_specifier
  (constructor_invocation (user_type) @reference.extends))))
(class_declaration "class" (delegation_specifiers (delegation_specifier
  [(user_type) @reference.inherits
   (explicit_delegation (user_type) @reference.inherits)])))
(object_declaration (delegation_specifiers (delegation_specifier
  [(constructor_invocation (user_type) @reference.extends)
   (user_type) @reference.inherits])))
(class_declaration "interface" (delegation_specifiers (delegation_specifier
  (user_type) @reference.extends)))

; ---------------------------------------------------------------------------------------------
; Type hints: `val x: Foo`, `val x = Foo()`, parameters `x: Foo`, primary-constructor parameters
; and properties (class-wide), nullable types `Foo?`.

(property_declaration
  (variable_declaration (identifier) @hint.var
    [(user_type) @hint.type (nullable_type (user_type) @hint.type)])) @hint
(property_declaration
  (variable_declaration (identifier) @hint.var .)
  (call_expression . (identifier) @hint.type)
  (#match? @hint.type "^[A-Z]")) @hint
; `val name = "x"`, `val n = 1`: a literal's type.
(property_declaration
  (variable_declaration (identifier) @hint.var .)
  [(string_literal) (multiline_string_literal) (character_literal) (number_literal)
   (float_literal)] @hint.value) @hint
; `val x = a.make()`, `val x = make()`, `val x = Foo.Builder()`, `val x = y as Foo`, `val x = Y`: the value's
; type, on demand (`Foo()` above is typed by its name).
(property_declaration
  (variable_declaration (identifier) @hint.var .)
  [(call_expression) (navigation_expression) (as_expression)
   (parenthesized_expression) (identifier)] @hint.value) @hint

; `fun f() = Foo(1)`: an expression body's value is the function's (when no type is written).
(function_body "=" . (_) @return.value)
(parameter (identifier) @hint.var
  [(user_type) @hint.type (nullable_type (user_type) @hint.type)]) @hint
(class_parameter (identifier) @hint.var
  [(user_type) @hint.type (nullable_type (user_type) @hint.type)]) @hint

; `typealias RawOption = NullableOption<String, String>`: the alias names that type (a file-level
; hint on the alias's name, which typeNamed follows where no repository type has the name).
(source_file (type_alias . "typealias" . (identifier) @hint.var
  [(user_type) @hint.type (nullable_type (user_type) @hint.type)]) @hint)
