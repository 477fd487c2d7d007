// Small DOM builder: every piece of text goes in through textContent, every
// attribute through setAttribute; no HTML strings.

export interface ElementOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

export function button(label: string, className: string, onClick: (event: MouseEvent) => void): HTMLButtonElement {
  const element = h("button", { className, text: label, attrs: { type: "button" } });
  element.addEventListener("click", onClick);
  return element;
}

/** Text only screen readers hear. */
export function screenReaderText(text: string): HTMLSpanElement {
  return h("span", { className: "sr-only", text });
}
