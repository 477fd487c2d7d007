// Which agent and which version's dialect a session is read (and written) with:
// pi 0.73.1, pi 1.5.2 (pi-version.ts), or oh-my-pi (omp) 18.3.4, a fork of pi
// with its own dialect of the format (shared/spec/omp-18-semantics.md).

import { PI_RELEASE, type PiVersion } from "./pi-version.js";

export type AgentName = "pi" | "omp";

/** omp's semantics are proven against 18.3.4; every 18.x is read the same. */
export type OmpVersion = "18";

export type AgentVersion = { readonly agent: "pi"; readonly version: PiVersion } | { readonly agent: "omp"; readonly version: OmpVersion };

export const AGENT_NAMES: readonly AgentName[] = ["pi", "omp"];

/** The exact omp release its semantics are proven against. */
export const OMP_RELEASE = "18.3.4";

export const OMP_18: AgentVersion = Object.freeze({ agent: "omp", version: "18" });
export const PI_0_73: AgentVersion = Object.freeze({ agent: "pi", version: "0.73" });
export const PI_1_5: AgentVersion = Object.freeze({ agent: "pi", version: "1.5" });

export function piAgent(version: PiVersion): AgentVersion {
  return version === "1.5" ? PI_1_5 : PI_0_73;
}

export function isAgentName(value: unknown): value is AgentName {
  return value === "pi" || value === "omp";
}

/** "pi 1.5.2", "omp 18.3.4" */
export function formatAgentVersion(agent: AgentVersion): string {
  return agent.agent === "omp" ? `omp ${OMP_RELEASE}` : `pi ${PI_RELEASE[agent.version]}`;
}

export function sameAgentVersion(a: AgentVersion, b: AgentVersion): boolean {
  return a.agent === b.agent && a.version === b.version;
}
