// The entry types and message roles omp 18.3.4 writes beyond pi's (spec §3.1,
// §3.2; src/session/session-entries.ts). pi ignores them; omp reads them.

/** Entry types only omp writes (each one marks a file as omp's). */
export const OMP_ONLY_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "reset_boundary",
  "title_change",
  "model_usage",
  "service_tier_change",
  "ttsr_injection",
  "credential_pin",
  "session_init",
  "mode_change",
]);

/** Message roles omp writes beyond pi 0.73's. */
export const OMP_MESSAGE_ROLES: ReadonlySet<string> = new Set(["developer", "pythonExecution", "fileMention", "hookMessage"]);

/** `custom` entries omp's core writes (their customType marks a file as omp's). */
export const OMP_CORE_CUSTOM_TYPES: ReadonlySet<string> = new Set(["session_exit", "tool_execution_start"]);

export function isOmpOnlyEntryType(type: string): boolean {
  return OMP_ONLY_ENTRY_TYPES.has(type);
}
