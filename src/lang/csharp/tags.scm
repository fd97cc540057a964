; C#: namespaces, types, members, calls, usings, inheritance, type hints.

; ---------------------------------------------------------------------------------------------
; Namespaces. A block namespace (`namespace A.B { ... }`) contains its declarations: it is a
; Module definition, the prefix of everything inside. A file-scoped `namespace A.B;` does not
; contain the declarations that follow it (they are its siblings), so its name is the file's
; package, which spec.moduleName turns into the file's prefix. A block namespace is never
; @package (the prefix would double); the resolver takes the package of such a file from its
; outermost Module definition.
(namespace_declaration name: (_) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @package)

; ---------------------------------------------------------------------------------------------
; Types (records, including `record struct`, are classes).
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

; Members: methods (also interface methods), constructors; local functions stay functions.
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function

; ---------------------------------------------------------------------------------------------
; Inheritance: the base list mixes the base class and interfaces; the target's kind decides.
; (A base list belongs to the class, record, struct or interface around it.)
(base_list [(identifier) (qualified_name)] @reference.inherits)
; `IRequest<Pong>` whole: its arity tells it from `IRequest`.
(base_list (generic_name) @reference.inherits)
; `record B(int X) : A(X)`
(base_list (primary_constructor_base_type type: [(identifier) (qualified_name)] @reference.inherits))
(base_list (primary_constructor_base_type type: (generic_name) @reference.inherits))

; ---------------------------------------------------------------------------------------------
; Calls: M(), M<T>(), obj.M(), Type.M<T>(), this.M(), base.M(), obj?.M()
((invocation_expression function: (identifier) @name) @reference.call
  (#not-eq? @name "nameof"))
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
; `Helper<T>.Make()`: the receiver is the type's bare name (listed first: the first match wins).
(invocation_expression
  function: (member_access_expression
    expression: (generic_name (identifier) @receiver) name: (identifier) @name)) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: (generic_name (identifier) @receiver)
    name: (generic_name (identifier) @name))) @reference.call
(invocation_expression
  function: (member_access_expression expression: _ @receiver name: (identifier) @name)) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: _ @receiver name: (generic_name (identifier) @name))) @reference.call
(invocation_expression
  function: (conditional_access_expression
    condition: (_) @receiver
    (member_binding_expression name: (identifier) @name))) @reference.call
(invocation_expression
  function: (conditional_access_expression
    condition: (_) @receiver
    (member_binding_expression name: (generic_name (identifier) @name)))) @reference.call

; new Foo(), new Foo<T>(), new Ns.Foo() (target-typed `new()` names no type: skipped)
(object_creation_expression type: [(identifier) (generic_name) (qualified_name)] @name) @reference.new

; Target-typed `new(...)`: `Foo x = new(...)`, fields and properties `Foo _x = new();` name the type
; on the declaration.
(variable_declaration
  type: [(identifier) (generic_name) (qualified_name)] @name
  (variable_declarator (implicit_object_creation_expression) @reference.new))
(property_declaration
  type: [(identifier) (generic_name) (qualified_name)] @name
  value: (implicit_object_creation_expression) @reference.new)

; `: base(...)` runs the base class's constructor (the first type of the base list, when it is a
; class), `: this(...)` another constructor of the same class: calls from the constructor that
; create no object.
(class_declaration
  (base_list . [(identifier) (qualified_name)] @name)
  body: (declaration_list
    (constructor_declaration (constructor_initializer "base") @reference.super)))
(class_declaration
  (base_list . (generic_name (identifier) @name))
  body: (declaration_list
    (constructor_declaration (constructor_initializer "base") @reference.super)))
(class_declaration
  name: (identifier) @name
  body: (declaration_list
    (constructor_declaration (constructor_initializer "this") @reference.super)))
(struct_declaration
  name: (identifier) @name
  body: (declaration_list
    (constructor_declaration (constructor_initializer "this") @reference.super)))

; ---------------------------------------------------------------------------------------------
; Usings. `using A.B;` and `using static A.B.C;` are both wildcards of the named scope (spec.ts
; tells a namespace from a static class); `using X = A.B.C;` imports C as X.
(using_directive !name [(identifier) (qualified_name)] @import.source @import.wildcard) @import
(using_directive
  name: (identifier) @import.alias [(identifier) (qualified_name) (generic_name)] @import.source) @import

; ---------------------------------------------------------------------------------------------
; Type hints. Declared types of locals and fields (`Foo x`, `Foo<T> x`, `Foo? x`), `var x = new
; Foo()`, parameters, properties, `foreach (Foo x in ...)`, `x is Foo f`.
(variable_declaration
  type: [(identifier) (generic_name) (qualified_name) (nullable_type) (predefined_type)] @hint.type
  (variable_declarator name: (identifier) @hint.var)) @hint
(variable_declaration
  type: (implicit_type)
  (variable_declarator
    name: (identifier) @hint.var
    (object_creation_expression type: [(identifier) (generic_name) (qualified_name)] @hint.type))) @hint
; `var x = Make()`, `var x = a.B().C()`, `var x = await a.BAsync()`, `var x = (Foo)y`, `var x = y as
; Foo`: the variable holds the expression's value, typed on demand (return types, casts).
(variable_declaration
  type: (implicit_type)
  (variable_declarator
    name: (identifier) @hint.var
    [(invocation_expression) (member_access_expression) (identifier) (await_expression)
     (cast_expression) (as_expression) (conditional_access_expression)
     (parenthesized_expression) (string_literal) (verbatim_string_literal)
     (interpolated_string_expression) (integer_literal) (real_literal) (boolean_literal)
     (character_literal)] @hint.value)) @hint
(parameter
  type: [(identifier) (generic_name) (qualified_name) (nullable_type) (predefined_type)] @hint.type
  name: (identifier) @hint.var) @hint
(property_declaration
  type: [(identifier) (generic_name) (qualified_name) (nullable_type)] @hint.type
  name: (identifier) @hint.var) @hint
(foreach_statement
  type: [(identifier) (generic_name) (qualified_name) (nullable_type)] @hint.type
  left: (identifier) @hint.var) @hint
(declaration_pattern
  type: [(identifier) (generic_name) (qualified_name)] @hint.type
  name: (identifier) @hint.var) @hint
