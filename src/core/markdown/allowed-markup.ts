// The elements and attributes our markdown-it configuration produces: what
// both sanitisers (the webview's DOM one, core's string one for exports) keep.
// `class` is allowed on each (class names are filtered).
import { isSafeHref } from "./safe-link";

export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ["href", "title"],
  blockquote: [],
  br: [],
  code: [],
  del: [],
  details: [],
  em: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  input: ["type", "checked", "disabled", "aria-label"],
  li: [],
  ol: ["start"],
  p: [],
  pre: [],
  s: [],
  strong: [],
  summary: [],
  table: [],
  tbody: [],
  td: [],
  th: [],
  thead: [],
  tr: [],
  ul: [],
};

const CLASS_NAME = /^[A-Za-z0-9_-]+$/;

export function isAllowedElement(tag: string): boolean {
  return Object.hasOwn(ALLOWED_ATTRIBUTES, tag);
}

/** Only plain class names survive. */
export function cleanClass(value: string): string {
  return value
    .split(/\s+/)
    .filter((name) => CLASS_NAME.test(name))
    .join(" ");
}

/** `value` as the attribute's text (entities decoded). */
export function isAllowedAttribute(tag: string, name: string, value: string): boolean {
  if (name === "class") return true;
  if (!ALLOWED_ATTRIBUTES[tag]!.includes(name)) return false;
  if (name === "href") return isSafeHref(value);
  if (name === "type") return value === "checkbox";
  if (name === "start") return /^\d{1,9}$/.test(value);
  return true;
}
