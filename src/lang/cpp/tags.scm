; C++: namespaces, classes, type aliases, functions and methods (in-class and out-of-line), test
; cases, calls and constructions, includes, inheritance, type hints. The text is prepared first
; (spec.ts `prepare`, src/lang/c/macros.ts): export and annotation macros are blanked, so
; `class LEVELDB_EXPORT DB {` reads as `class DB {`.

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
; A nested type defined outside its class, `struct DBImpl::Writer { ... };`: owned by the last scope.
(class_specifier name: (qualified_identifier) @qualified body: (_)) @definition.class
(struct_specifier name: (qualified_identifier) @qualified body: (_)) @definition.struct

; Type aliases `using Table = SkipList<K, C>;`, `typedef Foo* FooPtr;`: a type whose members are
; the aliased type's (it extends it), so `Table::Iterator` and `Table t; t.Insert()` resolve. A
; smart pointer alias (`using Ptr = std::shared_ptr<Node>;`) stands for its pointee; other std::
; types and primitive types are no repository types and make no alias. An alias is a class
; (`@definition.alias`) constructed by its target's constructors.
(alias_declaration
  name: (type_identifier) @name
  type: (type_descriptor
    type: [
      (type_identifier) @reference.inherits
      (template_type name: (type_identifier) @reference.inherits)
      (qualified_identifier name: (type_identifier)) @reference.inherits
      (qualified_identifier name: (template_type name: (type_identifier) @reference.inherits)) @_q
    ])
  (#not-match? @reference.inherits "^(::)?std::")
  (#not-match? @_q "^(::)?std::")) @definition.alias
(type_definition
  type: [
    (type_identifier) @reference.inherits
    (template_type name: (type_identifier) @reference.inherits)
    (qualified_identifier name: (type_identifier)) @reference.inherits
    (qualified_identifier name: (template_type name: (type_identifier) @reference.inherits)) @_q
  ]
  declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)]
  (#not-match? @reference.inherits "^(::)?std::")
  (#not-match? @_q "^(::)?std::")) @definition.alias
(alias_declaration
  name: (type_identifier) @name
  type: (type_descriptor
    type: (qualified_identifier
      name: (template_type
        name: (type_identifier) @_smart
        arguments: (template_argument_list . (type_descriptor type: [
          (type_identifier) @reference.inherits
          (qualified_identifier name: (type_identifier) @reference.inherits)
        ])))))
  (#any-of? @_smart "unique_ptr" "shared_ptr" "weak_ptr")) @definition.class
(type_definition
  type: (qualified_identifier
    name: (template_type
      name: (type_identifier) @_smart
      arguments: (template_argument_list . (type_descriptor type: [
        (type_identifier) @reference.inherits
        (qualified_identifier name: (type_identifier) @reference.inherits)
      ]))))
  declarator: (type_identifier) @name
  (#any-of? @_smart "unique_ptr" "shared_ptr" "weak_ptr")) @definition.class

; ---- functions and methods ---------------------------------------------------------------------
; A function directly inside a class body becomes a method. Templates wrap the definition: the
; inner one is captured, so the line is the function's own.

; Free functions and inline member functions: `int f()`, `int* f()`, `int& f()`, `T** f()`.
(function_definition
  type: (_)? @_type
  declarator: (function_declarator
    declarator: [(identifier) (field_identifier) (operator_name) (destructor_name)] @name)
  body: (_)
  (#not-eq? @_type "__m")
  (#not-match? @name "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|FRIEND_TEST|BOOST_AUTO_TEST_CASE|BOOST_FIXTURE_TEST_CASE)$")) @definition.function
; A function-like macro, when `blankMacros(text, { macroBodies: true })` rewrote
; `#define f(x) g(x)` as `__m f(x){g(x);}` (src/lang/c/macros.ts): a call to it is a call of what
; its body calls. Off until the analyzer reads `@definition.macro` (prepare leaves macros alone).
(function_definition
  type: (type_identifier) @_type
  declarator: (function_declarator declarator: (identifier) @name)
  (#eq? @_type "__m")) @definition.macro
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)] @name))
  body: (_)) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator
      declarator: [(identifier) (field_identifier) (operator_name)] @name))
  body: (_)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier)] @name)))
  body: (_)) @definition.function

; Out-of-line member definitions `void Cart::add(int x) { }`: the method's name, owned by the last
; scope (`ns::Cart::add` -> owner `Cart`, `Box<T>::put` -> owner `Box<T>`); `@qualified` splits
; the scoped name at any depth (a pattern per depth costs far more to compile).
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier) @qualified)
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier) @qualified))
    (reference_declarator (function_declarator declarator: (qualified_identifier) @qualified))
  ]
  body: (_)) @definition.method

; Member functions declared in a class body without a definition there: only pure virtual ones
; (`virtual void f() = 0;`) are definitions of their own (the static target of a call through the
; base). Other declarations (`void add(int);`, `Cart(int);`) are prototypes, like C's: the
; definition (inline or out of line `void Cart::add(int) { }`) is the symbol calls reach.
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (identifier) (operator_name) (destructor_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
  ]
  default_value: (number_literal) @_pure
  (#eq? @_pure "0")) @definition.method

; ---- macro expansions --------------------------------------------------------------------------
; A function-like macro invoked where declarations stand (`YAML_DEFINE_CONVERT(int);`) defines what
; its body defines: a definition at the invocation whose call is the macro (its body's calls,
; src/lang/c/macros.ts). Tree-sitter reads the invocation as a declaration, a statement or an error;
; one without its `;` heads a block (a test case, below).
(translation_unit
  (declaration
    type: (type_identifier) @name @reference.call
    declarator: (parenthesized_declarator)) @definition.expansion
  (#match? @name "^[A-Z][A-Z0-9_]{2,}$"))
(declaration_list
  (declaration
    type: (type_identifier) @name @reference.call
    declarator: (parenthesized_declarator)) @definition.expansion
  (#match? @name "^[A-Z][A-Z0-9_]{2,}$"))
(translation_unit
  (expression_statement
    (call_expression function: (identifier) @name @reference.call)) @definition.expansion
  (#match? @name "^[A-Z][A-Z0-9_]{2,}$")
  (#match? @definition.expansion ";$"))
(declaration_list
  (expression_statement
    (call_expression function: (identifier) @name @reference.call)) @definition.expansion
  (#match? @name "^[A-Z][A-Z0-9_]{2,}$")
  (#match? @definition.expansion ";$"))
(translation_unit
  (ERROR
    (function_declarator
      declarator: (identifier) @name @reference.call
      parameters: (parameter_list)) @definition.expansion)
  (#match? @name "^[A-Z][A-Z0-9_]{2,}$"))
(declaration_list
  (ERROR
    (function_declarator
      declarator: (identifier) @name @reference.call
      parameters: (parameter_list)) @definition.expansion)
  (#match? @name "^[A-Z][A-Z0-9_]{2,}$"))

; ---- test cases --------------------------------------------------------------------------------
; Test macros define a test function; its calls are the test's. GoogleTest `TEST(Suite, Name) {}`
; (and TEST_F, TEST_P, TYPED_TEST): a method `Name` of the suite, so a fixture's methods are its
; implicit `this` calls. Catch2 / doctest `TEST_CASE("name") {}`, `SECTION("name") {}`,
; `SCENARIO`, `GIVEN`/`WHEN`/`THEN`, `SUBCASE`: named by their string. Boost.Test
; `BOOST_AUTO_TEST_CASE(name) {}`.
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @_test
    parameters: (parameter_list
      .
      (parameter_declaration type: (_) @owner)
      .
      (parameter_declaration type: (_) @name)
      .))
  body: (_)
  (#any-of? @_test "TEST" "TEST_F" "TEST_P" "TYPED_TEST" "TYPED_TEST_P")) @definition.function
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @_test
    parameters: (parameter_list . (parameter_declaration type: (_) @name)))
  body: (_)
  (#any-of? @_test "BOOST_AUTO_TEST_CASE" "BOOST_FIXTURE_TEST_CASE" "BOOST_DATA_TEST_CASE")) @definition.function
(_
  (expression_statement
    (call_expression
      function: (identifier) @_test
      arguments: (argument_list . (string_literal) @name)))
  .
  (compound_statement) @definition.function
  (#any-of? @_test "TEST_CASE" "SECTION" "SCENARIO" "GIVEN" "WHEN" "THEN" "AND_GIVEN" "AND_WHEN"
    "AND_THEN" "SUBCASE" "TEMPLATE_TEST_CASE"))
(_
  (expression_statement
    (call_expression
      function: (identifier) @_test
      arguments: (argument_list . (_) @owner . (string_literal) @name)))
  .
  (compound_statement) @definition.function
  (#any-of? @_test "TEST_CASE_METHOD" "TEST_CASE_FIXTURE"))

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

; new Cart(...), new shop::Cart(...), new Box<int>(): a qualified type's scope is the receiver.
(new_expression type: (_) @name) @reference.new
(new_expression
  type: (qualified_identifier
    scope: (_) @receiver
    name: [(type_identifier) @name (template_type name: (type_identifier) @name)])) @reference.new

; Objects constructed where they are declared: `Slice key(data, n);`, `MutexLock l(&mu_);`,
; `log::Writer w(file);`, `Status s;`, `Options opts{...};` (a local's or a global's), and
; temporaries `Point{1, 2}`. Pointers and references (`Foo* p;`) construct nothing.
(declaration
  type: [(type_identifier) @name (template_type name: (type_identifier) @name)]
  declarator: [
    (init_declarator declarator: (identifier) value: [(argument_list) (initializer_list)])
    (identifier)
  ] @reference.new)
(declaration
  type: (qualified_identifier
    scope: (_) @receiver
    name: [(type_identifier) @name (template_type name: (type_identifier) @name)])
  declarator: [
    (init_declarator declarator: (identifier) value: [(argument_list) (initializer_list)])
    (identifier)
  ] @reference.new
  (#not-match? @receiver "^(::)?std$"))
; `Slice key(data, n);` in a body parses as a function declaration (the most vexing parse).
(compound_statement
  (declaration
    type: [(type_identifier) @name (template_type name: (type_identifier) @name)]
    declarator: (function_declarator declarator: (identifier)) @reference.new))
(compound_statement
  (declaration
    type: (qualified_identifier
      scope: (_) @receiver
      name: [(type_identifier) @name (template_type name: (type_identifier) @name)])
    declarator: (function_declarator declarator: (identifier)) @reference.new
    (#not-match? @receiver "^(::)?std$")))
; A call passed to a vexing-parse declaration reads as a parameter with a function type:
; `std::stringstream s(conv::normalize(input));`, `Foo x(make(a));`.
(compound_statement
  (declaration
    declarator: (function_declarator
      parameters: (parameter_list
        (parameter_declaration
          type: [(type_identifier) @name
            (qualified_identifier scope: (namespace_identifier) @receiver name: (type_identifier) @name)]
          declarator: (abstract_function_declarator parameters: (parameter_list) @_args)) @reference.call))))
(compound_literal_expression
  type: [(type_identifier) @name (template_type name: (type_identifier) @name)]) @reference.new
(compound_literal_expression
  type: (qualified_identifier
    scope: (_) @receiver
    name: [(type_identifier) @name (template_type name: (type_identifier) @name)])) @reference.new
; Base-class initializers `Cart::Cart() : Entity(id)` construct the base (member initializers
; `id_(id)` name no type and stay unresolved).
(field_initializer
  .
  [(field_identifier) @name (qualified_identifier) @name (template_method name: (field_identifier) @name)]
) @reference.new

; Operator expressions, which call the operator a repository type defines (`out << node`,
; `a == b`, `s = other`, `v[i]`, `++it`, `!x`): the operator's token is the name, the left operand
; (or the only one) the receiver; the call is named `operator<<` and reaches the receiver type's
; member, else a free operator taking both operands (resolve/calls.ts resolveOperator).
(binary_expression left: (_) @receiver operator: _ @name right: (_)) @reference.operator
(assignment_expression left: (_) @receiver operator: _ @name right: (_)) @reference.operator
(subscript_expression argument: (_) @receiver indices: (subscript_argument_list "[" @name)) @reference.operator
(unary_expression operator: _ @name argument: (_) @receiver) @reference.operator
(update_expression operator: _ @name argument: (_) @receiver) @reference.operator
(update_expression argument: (_) @receiver operator: _ @name) @reference.operator
(pointer_expression operator: "*" @name argument: (_) @receiver) @reference.operator
; `for (auto x : items)`: the iterator's `!=`, `++` and `*` (the analyzer names them).
(for_range_loop right: (_) @name) @reference.range

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
  type: [(type_identifier) (qualified_identifier) (template_type) (primitive_type) (sized_type_specifier)] @hint.type
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
  (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint

; `Cart c(store);` inside a body parses as a function declaration (the most vexing parse).
(compound_statement
  (declaration
    type: [(type_identifier) (qualified_identifier) (template_type) (primitive_type) (sized_type_specifier)] @hint.type
    declarator: (function_declarator declarator: (identifier) @hint.var)
    (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint)

(field_declaration
  type: [(type_identifier) (qualified_identifier) (template_type) (primitive_type) (sized_type_specifier)] @hint.type
  declarator: [
    (field_identifier) @hint.var
    (pointer_declarator declarator: (field_identifier) @hint.var)
    (reference_declarator (field_identifier) @hint.var)
  ]
  (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint

; Parameters of function definitions (not of prototypes, whose scope would be the whole file).
(function_definition
  declarator: [
    (function_declarator parameters: (parameter_list
      (parameter_declaration
        type: [(type_identifier) (qualified_identifier) (template_type) (primitive_type) (sized_type_specifier)] @hint.type
        declarator: [
          (identifier) @hint.var
          (pointer_declarator declarator: (identifier) @hint.var)
          (reference_declarator (identifier) @hint.var)
        ]
        (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint))
    (pointer_declarator declarator: (function_declarator parameters: (parameter_list
      (parameter_declaration
        type: [(type_identifier) (qualified_identifier) (template_type) (primitive_type) (sized_type_specifier)] @hint.type
        declarator: [
          (identifier) @hint.var
          (pointer_declarator declarator: (identifier) @hint.var)
          (reference_declarator (identifier) @hint.var)
        ]
        (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint)))
    (reference_declarator (function_declarator parameters: (parameter_list
      (parameter_declaration
        type: [(type_identifier) (qualified_identifier) (template_type) (primitive_type) (sized_type_specifier)] @hint.type
        declarator: [
          (identifier) @hint.var
          (pointer_declarator declarator: (identifier) @hint.var)
          (reference_declarator (identifier) @hint.var)
        ]
        (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint)))
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
  (#not-match? @hint.type "^(::)?std::(unique_ptr|shared_ptr|weak_ptr)\\b")) @hint
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
