//! Structural rewrites with ast-grep (ast_edit) and the tree-sitter block resolver for replace block N:.
