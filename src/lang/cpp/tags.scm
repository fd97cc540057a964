; C++: namespaces, classes, functions and methods (in-class and out-of-line), calls, includes,
; inheritance, type hints.

; ---- namespaces and types ----------------------------------------------------------------------

(namespace_definition name: (namespace_identifier) @name) @definition.module
; `namespace a::b { }`: one definition named `a::b`.
(namespace_definition name: (nested_namespace_specifier) @name) @definition.module

(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
; `typedef struct { ... } Name;`
(type_definition
  type: (struct_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.enum

; ---- functions and methods ---------------------------------------------------------------------
; A function directly inside a class body becomes a method. Templates wrap the definition: the
; inner one is captured, so the line is the function's own.

; Free functions and inline member functions: `int f()`, `int* f()`, `int& f()`, `T** f()`.
(function_definition
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (operator_name) (destructor_name)] @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)] @name))) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)] @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier)] @name)))) @definition.function

; Out-of-line member definitions `void Cart::add(int x) { }`: the method's name, owned by the last
; scope (`ns::Cart::add` -> owner `Cart`, `Box<T>::put` -> owner `Box<T>`).
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier
      scope: (_) @owner
      name: [(identifier) (operator_name) (destructor_name)] @name))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: (_) @owner
      name: [(identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      scope: (_) @owner
      name: [(identifier) (operator_name)] @name)))
  ]) @definition.method
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier
      scope: (_) @owner
      name: [(identifier) (operator_name) (destructor_name)] @name)))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: (_) @owner
        name: [(identifier) (operator_name)] @name))))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: (_) @owner
        name: [(identifier) (operator_name)] @name))))
  ]) @definition.method
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier
      name: (qualified_identifier
        scope: (_) @owner
        name: [(identifier) (operator_name) (destructor_name)] @name))))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier name: (qualified_identifier
        scope: (_) @owner
        name: [(identifier) (operator_name)] @name)))))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier name: (qualified_identifier
        scope: (_) @owner
        name: [(identifier) (operator_name)] @name)))))
  ]) @definition.method

; Member functions declared in a class body (`void add(int);`, `virtual void f() = 0;`,
; `static Cart* create();`, constructors `Cart(int);`, destructors `~Cart();`). Function-pointer
; fields (`int (*fn)(int);`) are not methods.
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (identifier) (operator_name) (destructor_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
  ]) @definition.method
(field_declaration_list
  (declaration
    declarator: (function_declarator
      declarator: [(identifier) (destructor_name) (operator_name)] @name)) @definition.method)

; ---- calls -------------------------------------------------------------------------------------

; f(x), make<T>(x), ::f(x)
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(call_expression function: (qualified_identifier !scope name: (identifier) @name)) @reference.call

; obj.m(), ptr->m(), this->m(), this->store_->m(), obj.get<T>(), obj.template get<T>()
(call_expression
  function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression
  function: (field_expression
    argument: (_) @receiver
    field: [
      (template_method name: (field_identifier) @name)
      (dependent_name (template_method name: (field_identifier) @name))
    ])) @reference.call

; Qualified calls `ns::f()`, `Cart::create()`, `a::b::Cart::create()`, `Box<int>::make()`,
; `ns::make<T>()`: the receiver is the scope right before the name.
(call_expression
  function: (qualified_identifier
    scope: [(namespace_identifier) @receiver (type_identifier) @receiver
      (template_type name: (type_identifier) @receiver)]
    name: [(identifier) @name (template_function name: (identifier) @name)])) @reference.call
(call_expression
  function: (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (type_identifier) @receiver
      (template_type name: (type_identifier) @receiver)]
    name: [(identifier) @name (template_function name: (identifier) @name)]))) @reference.call
(call_expression
  function: (qualified_identifier name: (qualified_identifier name: (qualified_identifier
    scope: [(namespace_identifier) @receiver (type_identifier) @receiver
      (template_type name: (type_identifier) @receiver)]
    name: [(identifier) @name (template_function name: (identifier) @name)])))) @reference.call

; new Cart(...), new shop::Cart(...), new Box<int>()
(new_expression type: (_) @name) @reference.new
; Base-class initializers `Cart::Cart() : Entity(id)` construct the base (member initializers
; `id_(id)` name no type and stay unresolved).
(field_initializer
  .
  [(field_identifier) @name (qualified_identifier) @name (template_method name: (field_identifier) @name)]
) @reference.new

; ---- includes ----------------------------------------------------------------------------------

(preproc_include path: (_) @import.source @import.wildcard) @import

; ---- inheritance -------------------------------------------------------------------------------
; `class A : public B, private ns::C, Tmpl<T>`: class or struct bases, EXTENDS in C++.

(base_class_clause (type_identifier) @reference.inherits)
(base_class_clause (qualified_identifier name: (type_identifier)) @reference.inherits)
(base_class_clause (template_type name: (type_identifier) @reference.inherits))
(base_class_clause
  (qualified_identifier name: (template_type name: (type_identifier) @reference.inherits)))

; ---- type hints --------------------------------------------------------------------------------
; Declared types of locals, fields and parameters (`Cart c;`, `Cart c(1);`, `Cart* p = ...;`,
; `const Cart& r`, `shop::Cart c;`), `auto x = new Cart()`, `auto x = Cart(...)`, and smart
; pointers (`std::unique_ptr<Store> s`, `auto s = std::make_unique<Store>()`) as their pointee.
; Other std:: types (`std::vector<int> v`) say nothing about repository code.

(declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @hint.type
  declarator: [
    (identifier) @hint.var
    (pointer_declarator declarator: (identifier) @hint.var)
    (reference_declarator (identifier) @hint.var)
    (init_declarator declarator: [
      (identifier) @hint.var
      (pointer_declarator declarator: (identifier) @hint.var)
      (reference_declarator (identifier) @hint.var)
    ])
  ]
  (#not-match? @hint.type "^(::)?std::")) @hint

; `Cart c(store);` inside a body parses as a function declaration (the most vexing parse).
(compound_statement
  (declaration
    type: [(type_identifier) (qualified_identifier) (template_type)] @hint.type
    declarator: (function_declarator declarator: (identifier) @hint.var)
    (#not-match? @hint.type "^(::)?std::")) @hint)

(field_declaration
  type: [(type_identifier) (qualified_identifier) (template_type)] @hint.type
  declarator: [
    (field_identifier) @hint.var
    (pointer_declarator declarator: (field_identifier) @hint.var)
    (reference_declarator (field_identifier) @hint.var)
  ]
  (#not-match? @hint.type "^(::)?std::")) @hint

; Parameters of function definitions (not of prototypes, whose scope would be the whole file).
(function_definition
  declarator: [
    (function_declarator parameters: (parameter_list
      (parameter_declaration
        type: [(type_identifier) (qualified_identifier) (template_type)] @hint.type
        declarator: [
          (identifier) @hint.var
          (pointer_declarator declarator: (identifier) @hint.var)
          (reference_declarator (identifier) @hint.var)
        ]
        (#not-match? @hint.type "^(::)?std::")) @hint))
    (pointer_declarator declarator: (function_declarator parameters: (parameter_list
      (parameter_declaration
        type: [(type_identifier) (qualified_identifier) (template_type)] @hint.type
        declarator: [
          (identifier) @hint.var
          (pointer_declarator declarator: (identifier) @hint.var)
          (reference_declarator (identifier) @hint.var)
        ]
        (#not-match? @hint.type "^(::)?std::")) @hint)))
    (reference_declarator (function_declarator parameters: (parameter_list
      (parameter_declaration
        type: [(type_identifier) (qualified_identifier) (template_type)] @hint.type
        declarator: [
          (identifier) @hint.var
          (pointer_declarator declarator: (identifier) @hint.var)
          (reference_declarator (identifier) @hint.var)
        ]
        (#not-match? @hint.type "^(::)?std::")) @hint)))
  ])

; std::unique_ptr<Store> s; std::shared_ptr<Store> field_; const std::shared_ptr<Store>& p
(declaration
  type: (qualified_identifier
    name: (template_type
      name: (type_identifier) @_smart
      arguments: (template_argument_list . (type_descriptor type: (_) @hint.type))))
  declarator: [(identifier) @hint.var (init_declarator declarator: (identifier) @hint.var)]
  (#any-of? @_smart "unique_ptr" "shared_ptr" "weak_ptr")) @hint
(field_declaration
  type: (qualified_identifier
    name: (template_type
      name: (type_identifier) @_smart
      arguments: (template_argument_list . (type_descriptor type: (_) @hint.type))))
  declarator: (field_identifier) @hint.var
  (#any-of? @_smart "unique_ptr" "shared_ptr" "weak_ptr")) @hint
(parameter_declaration
  type: (qualified_identifier
    name: (template_type
      name: (type_identifier) @_smart
      arguments: (template_argument_list . (type_descriptor type: (_) @hint.type))))
  declarator: [(identifier) @hint.var (reference_declarator (identifier) @hint.var)]
  (#any-of? @_smart "unique_ptr" "shared_ptr" "weak_ptr")) @hint

; `namespace money = shop::util;`: `money::f()` names members of `shop::util`.
(namespace_alias_definition
  name: (namespace_identifier) @hint.var
  .
  [(namespace_identifier) (nested_namespace_specifier)] @hint.type) @hint

; auto c = new Cart(); auto* c = new Cart(); auto c = Cart(1); auto s = std::make_unique<Store>();
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: [(identifier) @hint.var (pointer_declarator declarator: (identifier) @hint.var)]
    value: (new_expression type: (_) @hint.type))) @hint
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: (identifier) @hint.var
    value: (call_expression
      function: [(identifier) (qualified_identifier name: (identifier))] @hint.type))
  (#not-match? @hint.type "^(::)?std::")) @hint
(declaration
  type: (placeholder_type_specifier)
  declarator: (init_declarator
    declarator: (identifier) @hint.var
    value: (call_expression
      function: (qualified_identifier
        name: (template_function
          name: (identifier) @_make
          arguments: (template_argument_list . (type_descriptor type: (_) @hint.type))))))
  (#any-of? @_make "make_unique" "make_shared")) @hint
