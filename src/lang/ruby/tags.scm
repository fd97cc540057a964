; Ruby: modules, classes, methods, calls, requires, inheritance and mixins, type hints.

; ---------------------------------------------------------------------------------------------
; Definitions. `class A::B` is named B. `def` inside a class or module becomes a method (the
; analyzer does that); at the top level it is a function. `def self.x` likewise. `class A::B` is B
; in A (qualified A.B).
(module name: (constant) @name) @definition.module
; `module Thor::Util` reopens Thor::Util: the whole path is the name (its last segment the symbol's).
(module name: (scope_resolution) @name) @definition.module
(class name: (constant) @name) @definition.class
(class name: (scope_resolution) @name) @definition.class
; `Klass = Class.new(Base) do .. end` / `Point = Struct.new(:x) do .. end` / `Mod = Module.new do`:
; the constant names the class (module) the block defines.
((assignment
   left: (constant) @name
   right: (call receiver: (constant) @_kind method: (identifier) @_new block: [(do_block) (block)])) @definition.class
  (#any-of? @_kind "Class" "Struct") (#eq? @_new "new"))
((assignment
   left: (constant) @name
   right: (call receiver: (constant) @_kind method: (identifier) @_new block: [(do_block) (block)])) @definition.module
  (#eq? @_kind "Module") (#eq? @_new "new"))
; Class-level methods (`def self.x`, a `def` in `class << self`) are marked `@static`.
(singleton_class body: (body_statement (method name: (_) @name @static) @definition.function))
(method name: (_) @name) @definition.function
; `alias_method :human_name, :name` defines the instance method human_name; in `class << self` a
; class-level one (the second pattern marks it). Rooted at the call: a pattern rooted at the class
; around it would stay alive through the whole class body.
((call !receiver method: (identifier) @_alias
   arguments: (argument_list . (simple_symbol) @name)) @definition.function
  (#eq? @_alias "alias_method"))
((singleton_class body: (body_statement (call !receiver method: (identifier) @_alias
   arguments: (argument_list . (simple_symbol) @name @static)) @definition.function))
  (#eq? @_alias "alias_method"))
(singleton_method name: (_) @name @static) @definition.function

; ---------------------------------------------------------------------------------------------
; Inheritance: `class A < B` extends; `include M` / `extend M` / `prepend M` in a class or module
; body implements.
(class superclass: (superclass [(constant) (scope_resolution)] @reference.extends))
; Rooted at the call, not at the class or module around it (a pattern rooted there stays alive
; through the whole body and costs far more to match); the enclosing type is the one that mixes in.
((call !receiver
    method: (identifier) @_mixin
    arguments: (argument_list [(constant) (scope_resolution)] @reference.implements))
  (#any-of? @_mixin "include" "extend" "prepend"))

; `Klass = Class.new(Base) do`: Klass extends Base.
((assignment
   left: (constant)
   right: (call receiver: (constant) @_kind method: (identifier) @_new
     arguments: (argument_list . [(constant) (scope_resolution)] @reference.extends)
     block: [(do_block) (block)]))
  (#eq? @_kind "Class") (#eq? @_new "new"))
; A module whose `self.included(base)` hook runs `base.extend ClassMethods` (or includes a module
; into base) hands that module to every class including it: Thor's, Rake's and many gems' way of
; adding class-level DSL methods. Recorded as the hooking module including it, so a class that
; includes the module finds those methods through its mixins. Rooted at the call (a pattern
; rooted at the hook method costs several times more to compile); `@hooked` keeps only the ones
; inside a hook (spec.mixinHooks).
((call receiver: (identifier) method: (identifier) @_mixin
    arguments: (argument_list [(constant) (scope_resolution)] @reference.implements @hooked))
  (#any-of? @_mixin "extend" "include" "prepend"))
((call receiver: (identifier) method: (identifier) @_send
    arguments: (argument_list . (simple_symbol) @_mixin [(constant) (scope_resolution)] @reference.implements @hooked))
  (#any-of? @_send "send" "__send__")
  (#any-of? @_mixin ":extend" ":include" ":prepend"))

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

; `require File.expand_path("../helper", __FILE__)`, `require File.expand_path("x", __dir__)`,
; `require File.join(File.dirname(__FILE__), "x")`, `require File.join(__dir__, "x")`: paths
; relative to this file. The call's text is the source (its method the imported name); spec.normalizeImport reads the path and
; what it is relative to from it (a pattern spelling out each form costs far more to compile).
((call !receiver
   method: (identifier) @import.name
   arguments: (argument_list . (call) @import.source .)) @import @import.wildcard
  (#any-of? @import.name "require" "load"))

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

; A method's value is its last expression (`def shell; @shell ||= Shell::Basic.new; end`): what a
; call of it, or a bare `shell.ask` in a method, is typed by (spec.implicitReturn).
(method body: (body_statement (_) @return.value .))
(singleton_method body: (body_statement (_) @return.value .))
