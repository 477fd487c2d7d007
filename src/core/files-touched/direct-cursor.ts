// Copies a parsed tree into ShNodes by calling the tree-sitter runtime's own
// cursor exports (`_ts_tree_cursor_*_wasm`) instead of web-tree-sitter's
// TreeCursor class. The class writes the cursor into the runtime's transfer
// buffer before every call and reads it back after every move (eight
// `setValue`/`getValue` round trips per step); the exports keep it there
// themselves as long as nothing else uses the buffer, which holds here: the
// copy makes no other runtime call between creating and deleting its cursor.
// This was two thirds of the cost of a parse.
//
// Emscripten makes the object passed to `Parser.init` the module, so the
// exports are found on it. A runtime without them (another web-tree-sitter
// build) gets no DirectCursor and parsing goes through TreeCursor instead.

import type { ShNode } from "./sh-node";

type Export = (tree: number) => number;

const EXPORTS = [
  "_ts_tree_root_node_wasm",
  "_ts_tree_cursor_new_wasm",
  "_ts_tree_cursor_delete_wasm",
  "_ts_tree_cursor_goto_first_child_wasm",
  "_ts_tree_cursor_goto_next_sibling_wasm",
  "_ts_tree_cursor_goto_parent_wasm",
  "_ts_tree_cursor_current_node_type_id_wasm",
  "_ts_tree_cursor_current_node_is_named_wasm",
  "_ts_tree_cursor_current_field_id_wasm",
  "_ts_tree_cursor_start_index_wasm",
  "_ts_tree_cursor_end_index_wasm",
] as const;

export interface DirectCursor {
  /** The tree at `tree` (an address in the runtime's heap) as ShNodes; `source` is the parsed text. */
  copyTree(tree: number, source: string, typeNames: readonly string[], fieldNames: readonly (string | null)[]): ShNode;
}

export function directCursorOf(runtime: Record<string, unknown>): DirectCursor | undefined {
  if (!EXPORTS.every((name) => typeof runtime[name] === "function")) return undefined;
  const fn = (name: (typeof EXPORTS)[number]) => runtime[name] as Export;
  const rootNode = fn("_ts_tree_root_node_wasm");
  const newCursor = fn("_ts_tree_cursor_new_wasm");
  const deleteCursor = fn("_ts_tree_cursor_delete_wasm");
  const firstChild = fn("_ts_tree_cursor_goto_first_child_wasm");
  const nextSibling = fn("_ts_tree_cursor_goto_next_sibling_wasm");
  const parent = fn("_ts_tree_cursor_goto_parent_wasm");
  const typeId = fn("_ts_tree_cursor_current_node_type_id_wasm");
  const isNamed = fn("_ts_tree_cursor_current_node_is_named_wasm");
  const fieldId = fn("_ts_tree_cursor_current_field_id_wasm");
  const startIndex = fn("_ts_tree_cursor_start_index_wasm");
  const endIndex = fn("_ts_tree_cursor_end_index_wasm");
  return {
    copyTree(tree, source, typeNames, fieldNames) {
      const copy = (field: number): ShNode => {
        const type = typeNames[typeId(tree)] ?? "ERROR";
        const start = startIndex(tree);
        const end = endIndex(tree);
        const node: ShNode = {
          type,
          named: isNamed(tree) === 1,
          field: field ? (fieldNames[field] ?? null) : null,
          text: source.slice(start, end),
          start,
          end,
          children: [],
        };
        // Heredoc bodies and comments are data: their inner nodes are never looked at.
        if (type !== "heredoc_body" && type !== "comment" && firstChild(tree) === 1) {
          do node.children.push(copy(fieldId(tree)));
          while (nextSibling(tree) === 1);
          parent(tree);
        }
        return node;
      };
      // The root node goes to the transfer buffer, the new cursor replaces it there.
      rootNode(tree);
      newCursor(tree);
      try {
        return copy(0);
      } finally {
        deleteCursor(tree);
      }
    },
  };
}
