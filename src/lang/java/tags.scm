; Java: definitions, calls, imports, inheritance, type hints.

(package_declaration [(scoped_identifier) (identifier)] @package)

; ---------------------------------------------------------------------------------------------
; Definitions. Annotation types (@interface) are skipped. Methods of anonymous classes
; (`new Runnable() { public void run() {...} }`) are definitions inside the method that creates
; them; an enum constant with a body is a class of its own inside the enum.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(class_declaration body: (class_body (method_declaration name: (identifier) @name) @definition.method))
(class_declaration body: (class_body (constructor_declaration name: (identifier) @name) @definition.method))
(record_declaration body: (class_body (method_declaration name: (identifier) @name) @definition.method))
(record_declaration body: (class_body (constructor_declaration name: (identifier) @name) @definition.method))
(record_declaration body: (class_body (compact_constructor_declaration name: (identifier) @name) @definition.method))
(interface_declaration body: (interface_body (method_declaration name: (identifier) @name) @definition.method))
(enum_declaration body: (enum_body (enum_body_declarations
  (method_declaration name: (identifier) @name) @definition.method)))
(enum_declaration body: (enum_body (enum_body_declarations
  (constructor_declaration name: (identifier) @name) @definition.method)))
(enum_constant name: (identifier) @name body: (class_body)) @definition.class
(enum_constant body: (class_body (method_declaration name: (identifier) @name) @definition.method))
; ... and is a subclass of its enum: `this` in its methods is a State (an argument of type State).
(enum_declaration
  name: (identifier) @reference.extends
  body: (enum_body (enum_constant body: (class_body) @inherit.at)))
(object_creation_expression
  (class_body (method_declaration name: (identifier) @name) @definition.method))

; ---------------------------------------------------------------------------------------------
; Calls.

; m(x)
(method_invocation !object name: (identifier) @name) @reference.call

; obj.m(x), this.m(), super.m(), Type.staticM(), a.b.m(), a.b().c(), arr[i].m(), "s".m() ...
; The receiver is kept as written; receivers the resolver cannot type (`a.b()`) fall back to
; name-based resolution instead of being mistaken for a call on `this`.
(method_invocation
  object: [
    (identifier) (field_access) (this) (super) (method_invocation) (array_access)
    (parenthesized_expression) (class_literal) (string_literal) (template_expression)
    (method_reference) (array_creation_expression)
  ] @receiver
  name: (identifier) @name
  (#not-match? @receiver "\\.\\s*this$")) @reference.call

; Outer.this.m(): a method of the enclosing instance of Outer.
(method_invocation
  object: (field_access object: (_) @receiver field: (this))
  name: (identifier) @name) @reference.call

; new Foo().m(): the receiver is an instance of Foo, so Foo's members are searched.
(method_invocation
  object: (object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @receiver)
  name: (identifier) @name) @reference.call
(method_invocation
  object: (object_creation_expression
    type: (generic_type [(type_identifier) (scoped_type_identifier)] @receiver))
  name: (identifier) @name) @reference.call

; new Foo(), new Foo<>(), new a.b.Foo(), new Runnable() { ... }
(object_creation_expression type: [(type_identifier) (scoped_type_identifier)] @name) @reference.new
(object_creation_expression
  type: (generic_type [(type_identifier) (scoped_type_identifier)] @name)) @reference.new

; super(...) in a constructor calls the superclass's constructor; this(...) another one of the
; same class. Both link to the type, like `new` (the resolver finds which: spec.superNames,
; selfNames).
(explicit_constructor_invocation constructor: [(super) (this)] @name) @reference.super

; Method references: Foo::bar, this::bar, obj::bar (a reference is a use of the method).
(method_reference . [(identifier) (field_access) (this) (super) (type_identifier) (scoped_type_identifier)] @receiver . (identifier) @name .) @reference.call
(method_reference . [(type_identifier) (scoped_type_identifier) (identifier)] @name . "new") @reference.new
(method_reference . (generic_type [(type_identifier) (scoped_type_identifier)] @name) . "new") @reference.new

; ---------------------------------------------------------------------------------------------
; Imports. `import a.b.C;` is split by spec.normalizeImport into source `a.b`, name `C`;
; `import static a.b.C.m;` into source `a.b.C`, name `m`.

(import_declaration [(scoped_identifier) (identifier)] @import.source .) @import
(import_declaration [(scoped_identifier) (identifier)] @import.source (asterisk) @import.wildcard) @import

; ---------------------------------------------------------------------------------------------
; Inheritance: the base as written, with its type arguments (`Base<Mra>`: what its `T` is here).

(superclass [(type_identifier) (scoped_type_identifier)] @reference.extends)
(superclass (generic_type [(type_identifier) (scoped_type_identifier)]) @reference.extends)
(super_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @reference.implements))
(super_interfaces (type_list (generic_type [(type_identifier) (scoped_type_identifier)]) @reference.implements))
(extends_interfaces (type_list [(type_identifier) (scoped_type_identifier)] @reference.extends))
(extends_interfaces (type_list (generic_type [(type_identifier) (scoped_type_identifier)]) @reference.extends))

; ---------------------------------------------------------------------------------------------
; Type hints: declared types of locals, fields, parameters, loop variables and resources;
; `var x = new Foo()`; `this.x = new Foo()`; constructor injection `this.x = x` of a typed parameter.

(local_variable_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
  declarator: (variable_declarator name: (identifier) @hint.var)
  (#not-eq? @hint.type "var")) @hint
(local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator
    name: (identifier) @hint.var
    value: (object_creation_expression type: (_) @hint.type))
  (#eq? @_var "var")) @hint

(local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator
    name: (identifier) @hint.var
    value: [(method_invocation) (field_access) (identifier) (cast_expression)] @hint.value)
  (#eq? @_var "var")) @hint

(field_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
  declarator: (variable_declarator name: (identifier) @hint.var)) @hint
(constant_declaration
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
  declarator: (variable_declarator name: (identifier) @hint.var)) @hint

(formal_parameter
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
  name: (identifier) @hint.var) @hint
(enhanced_for_statement
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
  name: (identifier) @hint.var) @hint
(resource
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
  name: (identifier) @hint.var
  (#not-eq? @hint.type "var")) @hint
(catch_formal_parameter
  (catch_type . [(type_identifier) (scoped_type_identifier)] @hint.type .)
  name: (identifier) @hint.var) @hint

(assignment_expression
  left: (field_access object: (this) field: (identifier)) @hint.var
  right: (object_creation_expression type: (_) @hint.type)) @hint

(constructor_declaration
  parameters: (formal_parameters (formal_parameter
    type: [(type_identifier) (scoped_type_identifier) (generic_type) (array_type) (integral_type)
    (floating_point_type) (boolean_type)] @hint.type
    name: (identifier) @_param))
  body: (constructor_body (expression_statement (assignment_expression
    left: (field_access object: (this) field: (identifier)) @hint.var
    right: (identifier) @_value)))
  (#eq? @_param @_value)) @hint
