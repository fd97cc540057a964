; Rust: items, impl scopes, calls (including inside macro arguments), `use`/`mod` imports, trait
; implementations, type hints.

; --- definitions ---------------------------------------------------------------------------------

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module

; impl T { ... } / impl Trait for T { ... }: methods inside are owned by T.
(impl_item type: (_) @name) @scope.impl

; --- inheritance ---------------------------------------------------------------------------------

(impl_item trait: [(type_identifier) (scoped_type_identifier)] @reference.implements)
(impl_item trait: (generic_type type: (_) @reference.implements))

; `impl Deref for Name { type Target = Token; }`: a Name's method calls auto-deref to Token's, which
; the resolver follows as it follows a base type (an EXTENDS edge Name -> Token in the graph).
((impl_item
   trait: [(type_identifier) (scoped_type_identifier)] @_deref
   body: (declaration_list
     (type_item name: (type_identifier) @_target
       type: [(type_identifier) (scoped_type_identifier)] @reference.extends)))
  (#match? @_deref "(^|::)Deref$") (#eq? @_target "Target"))
((impl_item
   trait: [(type_identifier) (scoped_type_identifier)] @_deref
   body: (declaration_list
     (type_item name: (type_identifier) @_target type: (generic_type type: (_) @reference.extends))))
  (#match? @_deref "(^|::)Deref$") (#eq? @_target "Target"))

; supertraits: trait Store: Named + Send
(trait_item
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier)] @reference.extends))
(trait_item bounds: (trait_bounds (generic_type type: (_) @reference.extends)))

; --- calls ---------------------------------------------------------------------------------------

; f(), f::<T>()
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call

; x.m(), self.m(), self.db.m(), f().m(), x.m::<T>()
; (`@receiver.value`: a value, never a module path, see CallFact.method)
(call_expression function: (field_expression value: (_) @receiver.value field: (field_identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @receiver.value field: (field_identifier) @name))) @reference.call

; T::new(), Self::f(), module::f(), crate::a::f(), T::<U>::f(), <T as Trait>::f()
(call_expression
  function: (scoped_identifier
    path: [(identifier) (scoped_identifier) (self) (super) (crate)] @receiver
    name: (identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: (scoped_identifier
      path: [(identifier) (scoped_identifier) (self) (super) (crate)] @receiver
      name: (identifier) @name))) @reference.call
(call_expression
  function: (scoped_identifier
    path: (generic_type type: (_) @receiver)
    name: (identifier) @name)) @reference.call
(call_expression
  function: (scoped_identifier
    path: (bracketed_type
      [(qualified_type type: (_) @receiver) (type_identifier) @receiver (scoped_type_identifier) @receiver])
    name: (identifier) @name)) @reference.call

; struct literals construct the type: Store { .. }, store::Store { .. } (not `Self { .. }`)
((struct_expression name: (type_identifier) @name) @reference.new
  (#not-eq? @name "Self"))
(struct_expression
  name: (scoped_type_identifier
    path: [(identifier) (scoped_identifier) (crate) (super) (self)] @receiver
    name: (type_identifier) @name)) @reference.new
(struct_expression name: (generic_type_with_turbofish type: (type_identifier) @name)) @reference.new

; Macro arguments and `macro_rules!` bodies are token trees, not expressions. In them a call is a
; name followed by a parenthesised group: `f(`, `recv.f(`, `Type::f(`.
;
; Token sequences the plain patterns would misread are claimed first by an earlier pattern (of two
; matches of one call, one with a receiver outranks one without, else the earlier pattern wins):
; attribute arguments (`#[cfg(any(unix))]`), `fn f(..)` in a macro body and a macro inside the
; arguments (`format!(..)`, `a::m!(..)`) become calls named after the group or `!`, which resolve to
; nothing; a method of an expression that is more than one token (`self.a.g(`, `f().g(`,
; `a::b::f(`, `<T>::f(`) gets the receiver `.`, an expression of unknown type, as `a.b.g()` outside
; a macro whose `a.b` cannot be typed. (spec.prepare rewrites the standard expression macros so that
; their arguments parse as expressions, once extract.ts applies it: see macros.ts.)
(attribute arguments: [
  (token_tree (identifier) @reference.call @receiver . (token_tree) @name)
  (token_tree (token_tree (identifier) @reference.call @receiver . (token_tree) @name))
  (token_tree (token_tree (token_tree (identifier) @reference.call @receiver . (token_tree) @name)))])
(token_tree ["fn" "struct"] . (identifier) @reference.call @receiver . (token_tree) @name)
(token_tree [(identifier) (crate) (super) (self)] @receiver . "::" . (identifier) @reference.call . "!" @name)
(token_tree (identifier) @reference.call @receiver . "!" @name)
(token_tree "." @receiver . (identifier) . ["." "::"] . (identifier) @name @reference.call . (token_tree . "("))
(token_tree "::" @receiver . (identifier) . ["." "::"] . (identifier) @name @reference.call . (token_tree . "("))
(token_tree [(identifier) (self)] @receiver . "." . (identifier) @name @reference.call . (token_tree . "("))
(token_tree [(identifier) (crate) (super)] @receiver . "::" . (identifier) @name @reference.call . (token_tree . "("))
(token_tree ["." "::"] @receiver . (identifier) @name @reference.call . (token_tree . "("))
((token_tree (identifier) @name @reference.call . (token_tree . "("))
  (#not-any-of? @name "Some" "Ok" "Err" "Box"))

; --- imports -------------------------------------------------------------------------------------
; `@import.source` is the whole use tree and `@import.name` one leaf of it; spec.normalizeImport
; expands the tree to the leaf's full path. `use super::..` inside an inline `mod { }` names this
; file's own module (already in scope), so only file- and function-level ones are kept.

((use_declaration
  argument: [(identifier) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.source @import.name) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (scoped_use_list
    list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name)) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (scoped_use_list
    list: (use_list (scoped_use_list
      list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name)))) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (scoped_use_list
    list: (use_list (scoped_use_list
      list: (use_list (scoped_use_list
        list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name)))))) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (use_list [(identifier) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
; Deeper trees (`use { crate::{a::B, c::{D, E}}, tabled::{{Table, Tabled}} }`).
((use_declaration
  argument: (use_list (scoped_use_list
    list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name))) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (use_list (scoped_use_list
    list: (use_list (scoped_use_list
      list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name))))) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (use_list (scoped_use_list
    list: (use_list (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name)))) @import.source) @import
  (#not-match? @import.source "^(::)?super"))
((use_declaration
  argument: (scoped_use_list
    list: (use_list (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name))) @import.source) @import
  (#not-match? @import.source "^(::)?super"))

([(source_file (use_declaration
    argument: [(scoped_identifier) (use_as_clause) (use_wildcard)] @import.source @import.name) @import)
  (block (use_declaration
    argument: [(scoped_identifier) (use_as_clause) (use_wildcard)] @import.source @import.name) @import)]
  (#match? @import.source "^(::)?super"))
([(source_file (use_declaration
    argument: (scoped_use_list
      list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name)) @import.source) @import)
  (block (use_declaration
    argument: (scoped_use_list
      list: (use_list [(identifier) (self) (scoped_identifier) (use_as_clause) (use_wildcard)] @import.name)) @import.source) @import)]
  (#match? @import.source "^(::)?super"))

; `mod store;` loads the file module store (`self::store`); normalizeImport spells the source.
(source_file (mod_item "mod" @import.source name: (identifier) @import.name !body) @import)

; `#[path = "x.rs"] mod y;` loads x.rs (relative to this file's directory) as module y.
((source_file
  (attribute_item (attribute (identifier) @_path value: (string_literal (string_content) @import.source)))
  .
  (mod_item name: (identifier) @import.alias !body) @import)
  (#eq? @_path "path"))

; A path of more than one segment qualifying a call, a struct literal or a type (`crate::a::f()`,
; `a::B::new()`, `x: crate::a::B`) is an import of that path under its dotted spelling (the call's
; receiver `crate.a`): spec.normalizeImport reads source = alias as that. Not `super::..` (inside an
; inline `mod tests` it names this file's module, which a path alone cannot tell) nor a bare
; `crate::f()` (the crate root's names would include its inline modules' members).
((call_expression
  function: [
    (scoped_identifier path: (scoped_identifier) @import.source @import.alias)
    (generic_function function: (scoped_identifier path: (scoped_identifier) @import.source @import.alias))
  ]) @import
  (#not-match? @import.source "^(::|std::|core::|alloc::|self::|Self::|super::)"))
; `rand::rng()`, `other_crate::f()`: a one-segment lowercase qualifier is a child module or an extern
; crate (the package's own library from its benches, examples and tests, another member of the
; workspace, or an external crate, whose calls then stay unlinked).
((call_expression
  function: [
    (scoped_identifier path: (identifier) @import.source @import.alias)
    (generic_function function: (scoped_identifier path: (identifier) @import.source @import.alias))
  ]) @import
  (#match? @import.source "^[a-z][a-z0-9_]*$")
  (#not-any-of? @import.source "std" "core" "alloc"))
((scoped_type_identifier path: (scoped_identifier) @import.source @import.alias) @import
  (#not-match? @import.source "^(::|std::|core::|alloc::|self::|Self::|super::)"))

; --- type hints ----------------------------------------------------------------------------------

; fn f(x: &Store, y: impl Trait, z: &mut dyn Trait, w: Box<dyn Trait>); let x: T = ..;
; (the innermost named type, so `&mut dyn Trait` reads as Trait)
(parameter
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  type: [
    (type_identifier) @hint.type
    (scoped_type_identifier) @hint.type
    (abstract_type trait: (_) @hint.type)
    (dynamic_type trait: (_) @hint.type)
    (primitive_type) @hint.type
    (reference_type type: [(type_identifier) (scoped_type_identifier) (primitive_type)] @hint.type)
    (reference_type type: (dynamic_type trait: (_) @hint.type))
    (reference_type type: (abstract_type trait: (_) @hint.type))
  ]) @hint
(let_declaration
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  type: [
    (type_identifier) @hint.type
    (scoped_type_identifier) @hint.type
    (dynamic_type trait: (_) @hint.type)
    (primitive_type) @hint.type
    (reference_type type: [(type_identifier) (scoped_type_identifier) (primitive_type)] @hint.type)
    (reference_type type: (dynamic_type trait: (_) @hint.type))
  ]) @hint

; generic types: Box<dyn Trait>, Rc<T>, Arc<T> dereference to their content; others name themselves
((parameter
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  type: [
    (generic_type type: (type_identifier) @_ptr type_arguments: (type_arguments . [
      (type_identifier) @hint.type (scoped_type_identifier) @hint.type (generic_type) @hint.type
      (dynamic_type trait: (_) @hint.type)]))
    (reference_type type: (generic_type type: (type_identifier) @_ptr type_arguments: (type_arguments . [
      (type_identifier) @hint.type (scoped_type_identifier) @hint.type (generic_type) @hint.type
      (dynamic_type trait: (_) @hint.type)])))
  ]) @hint
  (#any-of? @_ptr "Box" "Rc" "Arc"))
((let_declaration
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  type: (generic_type type: (type_identifier) @_ptr type_arguments: (type_arguments . [
    (type_identifier) @hint.type (scoped_type_identifier) @hint.type (generic_type) @hint.type
    (dynamic_type trait: (_) @hint.type)]))) @hint
  (#any-of? @_ptr "Box" "Rc" "Arc"))
((parameter
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  type: [(generic_type type: (_) @_g) (reference_type type: (generic_type type: (_) @_g))] @hint.type) @hint
  (#not-any-of? @_g "Box" "Rc" "Arc"))
((let_declaration
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  type: [(generic_type type: (_) @_g) (reference_type type: (generic_type type: (_) @_g))] @hint.type) @hint
  (#not-any-of? @_g "Box" "Rc" "Arc"))

; struct fields: `color: Color`, `repo: Box<Repo>`, `parent: Option<&'a Scope>` (self.color.m())
(field_declaration
  name: (field_identifier) @hint.var
  type: [(type_identifier) (scoped_type_identifier) (generic_type) (reference_type)] @hint.type) @hint

; let x = make(..); let mut rng = crate::test::rng(1); let y = x.field: typed on demand
(let_declaration
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  !type
  value: (_) @hint.value) @hint

; let x = Store { .. };
(let_declaration
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  value: (struct_expression name: [(type_identifier) (scoped_type_identifier)] @hint.type)) @hint
; let x = Store::new(..); let x = a::Store::with_capacity(..)?;
((let_declaration
  pattern: [(identifier) @hint.var (mut_pattern (identifier) @hint.var)]
  value: [
    (call_expression function: (scoped_identifier
      path: [(identifier) (scoped_identifier)] @hint.type name: (identifier) @ctor))
    (try_expression (call_expression function: (scoped_identifier
      path: [(identifier) (scoped_identifier)] @hint.type name: (identifier) @ctor)))
  ]) @hint
  (#match? @hint.type "(^|::)[A-Z][A-Za-z0-9_]*$")
  (#match? @ctor "^(new|default|with_[a-z0-9_]+|new_[a-z0-9_]+|from_[a-z0-9_]+|open|connect|create|build)$"))
