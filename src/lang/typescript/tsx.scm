; TSX: the TypeScript query plus JSX (appended to tags.scm for .tsx files).

; JSX components render as calls: <Foo />, <ui.Button>; lower-case tags are DOM elements.
((jsx_opening_element name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name) @reference.call
  (#match? @name "^[A-Z]"))
(jsx_opening_element
  name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call

