; C: definitions, calls, includes. No methods, no inheritance. The text is prepared first (spec.ts
; `prepare`, macros.ts): `LUA_API int f(`, `int ZEXPORT f(`, `local int f(` read as `int f(`, and
; `#if` branches inside function bodies are reduced to one.

; Function definitions. The name sits in a function_declarator, under as many pointer_declarators
; as the return type has stars: `int f()`, `int *f()`, `char **f()`, `int (*f(void))(int)`.
(function_definition
  type: (_)? @_type
  declarator: (function_declarator declarator: (identifier) @name)
  (#not-eq? @_type "__m")) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @name))))) @definition.function
; A function returning a function pointer: `int (*getfp(void))(int) { ... }`.
(function_definition
  declarator: (function_declarator
    declarator: (parenthesized_declarator
      (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @name))))) @definition.function

; A function-like macro, when `blankMacros(text, { macroBodies: true })` rewrote
; `#define f(x) g(x)` as `__m f(x){g(x);}` (src/lang/c/macros.ts): a call to it is a call of what
; its body calls. Off until the analyzer reads `@definition.macro` (prepare leaves macros alone).
(function_definition
  type: (type_identifier) @_type
  declarator: (function_declarator declarator: (identifier) @name)
  (#eq? @_type "__m")) @definition.macro

; Types with a body (a bare `struct x;` or `struct x *p` is a use, not a definition).
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
; `typedef struct { ... } Name;`: an anonymous type named by its typedef.
(type_definition
  type: (struct_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (union_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.enum

; Calls: f(x), and through function-pointer fields obj->fn(x) / obj.fn(x). Function-like macros
; parse as calls too; they resolve only when a function of that name exists.
(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

; #include "x.h" / #include <x.h>: every name of the header.
(preproc_include path: (_) @import.source @import.wildcard) @import
