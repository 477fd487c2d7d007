// The axe-core accessibility check of a webview's document, in the real
// browser. axe's source is evaluated in the frame through the browser's debug
// protocol (as a person's devtools would: the page's CSP, which allows only the
// page's own nonce-carrying script, is left as it is) and runs the WCAG 2 A/AA
// rules. A minimal helper (issue 25); the accessibility issue's own helper
// replaces it when it lands.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Frame } from "playwright-core";

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let source: string | undefined;

export async function axeViolations(frame: Frame): Promise<AxeViolation[]> {
  source ??= readFileSync(createRequire(__filename).resolve("axe-core/axe.min.js"), "utf8");
  await frame.evaluate(source);
  return frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}

/** One line per violation (for an assertion's message). */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).join(", ")}`).join("\n");
}
