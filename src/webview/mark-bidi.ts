// Makes bidi control characters in rendered text visible: each becomes a
// marked ⟨U+202E⟩ token (span.bidi-control), so a right-to-left override can
// no longer disguise a file name or reorder a sentence. Textareas keep the
// user's text as it is (the editor edits the real characters).
import { hasBidiControls, splitBidiControls } from "../core/text/bidi-controls";

function markTextNode(node: Text): void {
  const doc = node.ownerDocument;
  const fragment = doc.createDocumentFragment();
  for (const segment of splitBidiControls(node.data)) {
    if (!segment.control) {
      fragment.append(doc.createTextNode(segment.text));
      continue;
    }
    const span = doc.createElement("span");
    span.className = "bidi-control";
    span.title = "A Unicode bidirectional control character, shown instead of applied";
    span.textContent = segment.text;
    fragment.append(span);
  }
  node.replaceWith(fragment);
}

/** Replaces bidi controls in every text node under `root` (not inside textareas). */
export function markBidiControls(root: Node): void {
  if (!hasBidiControls(root.textContent ?? "")) return;
  const found: Text[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) {
      if (hasBidiControls((node as Text).data)) found.push(node as Text);
      continue;
    }
    if (node.nodeType === 1 && (node as Element).localName === "textarea") continue;
    for (const child of Array.from(node.childNodes)) stack.push(child);
  }
  for (const text of found) markTextNode(text);
}

/** Attribute values (titles, aria labels) get the plain token text. */
export { showBidiControls } from "../core/text/bidi-controls";
