; Go: definitions, calls, imports, struct/interface embedding, type hints.

(package_clause (package_identifier) @package)

; --- definitions ---------------------------------------------------------------------------------

(function_declaration name: (identifier) @name) @definition.function

; func (s *Store) Save(): owned by the receiver's type, named outside the type's body.
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @owner))
  name: (field_identifier) @name) @definition.method

; `type T struct {...}` alone: the whole declaration (its doc comment sits above the keyword);
; inside `type ( ... )` groups: each spec.
(type_declaration "type" . (type_spec name: (type_identifier) @name type: (struct_type))) @definition.struct
(type_declaration "type" . (type_spec name: (type_identifier) @name type: (interface_type))) @definition.interface
(type_declaration "(" (type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct)
(type_declaration "(" (type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface)

; interface methods
(method_elem name: (field_identifier) @name) @definition.method

; Function literals bound to a name are functions of their own (their calls are theirs):
; f := func() {...}, var f = func() {...}, x.f = func() {...}, T{Run: func() {...}}.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (func_literal))) @definition.function
(var_spec name: (identifier) @name value: (expression_list . (func_literal))) @definition.function
(assignment_statement
  left: (expression_list . [(identifier) (selector_expression field: (field_identifier))] @name)
  right: (expression_list . (func_literal))) @definition.function
(keyed_element
  key: (literal_element (identifier) @name)
  value: (literal_element (func_literal))) @definition.function

; --- inheritance ---------------------------------------------------------------------------------

; embedded struct fields: type A struct { B; *C; pkg.D }
(field_declaration_list
  (field_declaration
    !name
    type: [
      (type_identifier) @reference.extends
      (qualified_type) @reference.extends
      (pointer_type [(type_identifier) (qualified_type)] @reference.extends)
      (generic_type type: [(type_identifier) (qualified_type)] @reference.extends)
    ]))

; embedded interfaces: type RW interface { Reader; io.Writer }
(interface_type
  (type_elem . [(type_identifier) (qualified_type)] @reference.extends .))

; --- calls ---------------------------------------------------------------------------------------

; f(), f[T]()
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (parenthesized_expression (identifier) @name)) @reference.call

; pkg.F(), x.M(), x.y.M(), f().M()
(call_expression
  function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call

; F[int](x) parses as a conversion to a generic type
(type_conversion_expression type: (generic_type type: (type_identifier) @name)) @reference.call
(type_conversion_expression
  type: (generic_type
    type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name))) @reference.call

; composite literals construct a named struct: Store{...}, &Store{...}, store.Store{...}
(composite_literal type: (type_identifier) @name) @reference.new
(composite_literal type: (generic_type type: (type_identifier) @name)) @reference.new
(composite_literal
  type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name)) @reference.new
(composite_literal
  type: (generic_type
    type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name))) @reference.new

; --- imports -------------------------------------------------------------------------------------

(import_spec !name path: (_) @import.source) @import
(import_spec name: (package_identifier) @import.alias path: (_) @import.source) @import
(import_spec name: (dot) @import.wildcard path: (_) @import.source) @import

; --- type hints ----------------------------------------------------------------------------------

; receivers and parameters: func (s *Store) M(db *DB, opts ...Option)
(parameter_declaration
  name: (identifier) @hint.var
  type: [(type_identifier) (pointer_type) (qualified_type) (generic_type)] @hint.type) @hint
(variadic_parameter_declaration
  name: (identifier) @hint.var
  type: [(type_identifier) (pointer_type) (qualified_type) (generic_type)] @hint.type) @hint

; var x Store / var x *store.Store
(var_spec
  name: (identifier) @hint.var
  type: [(type_identifier) (pointer_type) (qualified_type) (generic_type)] @hint.type) @hint

; var x = &Store{} / var x = Store{}
(var_spec
  name: (identifier) @hint.var
  value: (expression_list . [
    (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @hint.type)
    (unary_expression
      operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @hint.type))
  ])) @hint

; x := &Store{} / x = Store{}
(short_var_declaration
  left: (expression_list . (identifier) @hint.var)
  right: (expression_list . [
    (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @hint.type)
    (unary_expression
      operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @hint.type))
  ])) @hint
(assignment_statement
  left: (expression_list . (identifier) @hint.var)
  right: (expression_list . [
    (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @hint.type)
    (unary_expression
      operand: (composite_literal type: [(type_identifier) (qualified_type) (generic_type)] @hint.type))
  ])) @hint

; x := NewStore(), var x = pkg.Default, x, err := open(): typed on demand from the value.
(var_spec
  name: (identifier) @hint.var
  value: (expression_list . [(call_expression) (selector_expression) (identifier)] @hint.value)) @hint
(short_var_declaration
  left: (expression_list . (identifier) @hint.var)
  right: (expression_list . [(call_expression) (selector_expression) (identifier)] @hint.value)) @hint
; bf, ok := v.(boolFlag)
(short_var_declaration
  left: (expression_list . (identifier) @hint.var)
  right: (expression_list . (type_assertion_expression
    type: [(type_identifier) (qualified_type) (pointer_type) (generic_type)] @hint.type))) @hint

; struct fields with a named type: `store store.Saver`, `db *DB` (scoped to the struct, so
; `s.store.Save()` resolves through s's type and the field's type)
(field_declaration
  name: (field_identifier) @hint.var
  type: [(type_identifier) (pointer_type) (qualified_type) (generic_type)] @hint.type) @hint
