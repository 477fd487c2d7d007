// The axe-core accessibility check of a webview's document, in the real
// browser. axe's source (the pinned npm package: nothing is fetched) is
// evaluated in the frame through the browser's debug protocol (as a person's
// devtools would: the page's CSP, which allows only the page's own
// nonce-carrying script, is left as it is), once per document.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame } from "playwright-core";

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

let source: string | undefined;

/** axe's violations in the frame's document: of the rules with one of `tags`, or of every rule. */
export async function axeViolations(frame: Frame, tags?: readonly string[]): Promise<AxeViolation[]> {
  source ??= readFileSync(createRequire(__filename).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(source);
  return frame.evaluate(async (values) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { ...(values ? { runOnly: { type: "tag", values } } : {}), resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  }, tags ? [...tags] : undefined);
}

/** One line per violation (for an assertion's message). */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(", ")}`).join("\n");
}
