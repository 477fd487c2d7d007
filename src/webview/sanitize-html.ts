// Defence in depth for markdown-it's output. With html off and links
// validated it should already be safe; this parses it into an inert
// <template> and keeps only the elements and attributes markdown-it is
// configured to produce. Anything else is replaced by its text, so the
// reader still sees what was written.
import { cleanClass, isAllowedAttribute, isAllowedElement } from "../core/markdown/allowed-markup";

function cleanAttributes(element: Element, tag: string): void {
  for (const attribute of Array.from(element.attributes)) {
    if (!isAllowedAttribute(tag, attribute.name, attribute.value)) {
      element.removeAttribute(attribute.name);
    } else if (attribute.name === "class") {
      const cleaned = cleanClass(attribute.value);
      if (cleaned) element.setAttribute("class", cleaned);
      else element.removeAttribute("class");
    }
  }
  // The only input is the task-list checkbox, and it is display only.
  if (tag === "input") {
    element.setAttribute("type", "checkbox");
    element.setAttribute("disabled", "");
  }
}

function cleanChildren(parent: Node): void {
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE) {
      child.remove();
      continue;
    }
    const element = child as Element;
    // Elements in the SVG or MathML namespace are never allowed, whatever their local name.
    const tag = element.namespaceURI === "http://www.w3.org/1999/xhtml" ? element.localName : "";
    if (!isAllowedElement(tag)) {
      element.replaceWith(document.createTextNode(element.textContent ?? ""));
      continue;
    }
    cleanAttributes(element, tag);
    cleanChildren(element);
  }
}

/** Parses `html` without running or loading anything and returns the cleaned nodes. */
export function sanitizeHtml(html: string): DocumentFragment {
  const template = document.createElement("template");
  template.innerHTML = html;
  cleanChildren(template.content);
  return template.content;
}
