// A shell parse tree as plain objects (copied out of tree-sitter-bash, or built
// by the simple parser for common commands).

export interface ShNode {
  /** Node type (`command`, `word`, …) or, for anonymous nodes, the token itself (`>`, `&&`). */
  type: string;
  named: boolean;
  /** Field name in the parent (`name`, `argument`, `redirect`, `destination`, …). */
  field: string | null;
  text: string;
  /** Offsets of the node in the parsed source (UTF-16 code units). */
  start: number;
  end: number;
  children: ShNode[];
}

export interface ShParseResult {
  root: ShNode;
  hasError: boolean;
  /** 1-based line and column of the first ERROR or MISSING node, when there is one. */
  errorAt?: { line: number; column: number };
}
