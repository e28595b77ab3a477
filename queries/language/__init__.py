"""The question language: the grammar, its syntax tree and the parser."""
