// Which pi's session semantics apply: pi 0.73.1 (`@mariozechner/pi-coding-agent`,
// the last release under that name) or pi 1.5.2 (`@earendil-works/pi-coding-agent`).

export type PiVersion = "0.73" | "1.5";

export const PI_VERSIONS: readonly PiVersion[] = ["0.73", "1.5"];

/** The exact pi release each version's semantics are proven against. */
export const PI_RELEASE: Readonly<Record<PiVersion, string>> = Object.freeze({ "0.73": "0.73.1", "1.5": "1.5.2" });

/**
 * "0.73", "0.73.1", "1.5", "1.5.2", "1" … → the semantics that apply; any 0.x is
 * 0.73 and any 1.x is 1.5 (the file format did not change within them). Undefined
 * for anything else.
 */
export function parsePiVersion(text: string): PiVersion | undefined {
  const match = /^\s*v?(\d+)(?:\.(\d+))?(?:\.\d+)?(?:[-+][\w.-]*)?\s*$/.exec(text);
  if (!match) return undefined;
  const major = Number(match[1]);
  if (major === 0) return "0.73";
  if (major === 1) return "1.5";
  return undefined;
}

export function isPiVersion(value: unknown): value is PiVersion {
  return value === "0.73" || value === "1.5";
}

/** "pi 1.5.2" */
export function formatPiVersion(version: PiVersion): string {
  return `pi ${PI_RELEASE[version]}`;
}
