; Ruby: modules, classes, methods, calls, requires, inheritance and mixins, type hints.

; ---------------------------------------------------------------------------------------------
; Definitions. `class A::B` is named B. `def` inside a class or module becomes a method (the
; analyzer does that); at the top level it is a function. `def self.x` likewise.
(module name: (constant) @name) @definition.module
(module name: (scope_resolution name: (_) @name)) @definition.module
(class name: (constant) @name) @definition.class
(class name: (scope_resolution name: (_) @name)) @definition.class
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function

; ---------------------------------------------------------------------------------------------
; Inheritance: `class A < B` extends; `include M` / `extend M` / `prepend M` in a class or module
; body implements.
(class superclass: (superclass [(constant) (scope_resolution)] @reference.extends))
([(class body: (body_statement
    (call !receiver
      method: (identifier) @_mixin
      arguments: (argument_list [(constant) (scope_resolution)] @reference.implements))))
  (module body: (body_statement
    (call !receiver
      method: (identifier) @_mixin
      arguments: (argument_list [(constant) (scope_resolution)] @reference.implements))))]
  (#any-of? @_mixin "include" "extend" "prepend"))

; ---------------------------------------------------------------------------------------------
; Calls: foo(x), foo x, obj.m, obj.m(x), obj&.m, self.m, Foo.new(...), Foo::Bar.create, blocks.
; Keywords-as-methods that never name a repository method are left out.
((call !receiver method: (identifier) @name) @reference.call
  (#not-any-of? @name
    "require" "require_relative" "load" "include" "extend" "prepend" "attr_reader"
    "attr_writer" "attr_accessor" "private" "protected" "public" "module_function"
    "private_constant" "raise" "puts" "print" "p" "lambda" "proc"))
(call receiver: (_) @receiver method: (identifier) @name) @reference.call
; A bare identifier can be a local variable or a call without arguments (`valid?`/`save!` are
; parsed as calls already). It is taken as a call when it is a statement of its own followed by
; another statement (a local variable there would do nothing); as the last statement of a body it
; may be a returned local, so it is skipped.
((program (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((body_statement (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((block_body (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((then (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((else (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((do (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((begin_block (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((end_block (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))
((ensure (identifier) @name @reference.call . (_))
  (#not-any-of? @name "private" "protected" "public" "module_function" "__method__"))

; ---------------------------------------------------------------------------------------------
; Requires (wildcards: a required file's names are all visible). `require_relative` is marked by
; capturing the method name as @import.name; spec.normalizeImport turns it into a `./` source.
((call !receiver
   method: (identifier) @_req
   arguments: (argument_list . (string . (string_content) @import.source .))) @import @import.wildcard
  (#eq? @_req "require"))
((call !receiver
   method: (identifier) @import.name
   arguments: (argument_list . (string . (string_content) @import.source .))) @import @import.wildcard
  (#eq? @import.name "require_relative"))

; ---------------------------------------------------------------------------------------------
; Type hints: x = Foo.new(...), @x = Foo::Bar.new, x ||= Foo.new.
((assignment
   left: [(identifier) (instance_variable) (class_variable)] @hint.var
   right: (call receiver: [(constant) (scope_resolution)] @hint.type method: (identifier) @_new)) @hint
  (#eq? @_new "new"))
((operator_assignment
   left: [(identifier) (instance_variable) (class_variable)] @hint.var
   right: (call receiver: [(constant) (scope_resolution)] @hint.type method: (identifier) @_new)) @hint
  (#eq? @_new "new"))
