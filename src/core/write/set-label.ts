// Setting or clearing an entry's label, as pi's appendLabelChange does (the
// /tree label editor): a `label` entry appended as a child of the leaf, with
// the label trimmed; an empty label clears it (`label` left out of the line,
// as JSON.stringify drops pi's undefined). omp reads the same entry
// (appendLabelChange); an omp session gets it through omp's append protocol.

import { checkWritable, commitAppend, planAppend } from "../session/append/append.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { LabelEntry } from "../session/format/types.js";
import { requireEntry, writerAgent, type AgentOption, type RunOutcome } from "./run-common.js";

export interface SetLabelOptions extends AgentOption {
  session: LoadedSession;
  targetId: string;
  /** undefined or blank: clear the label. */
  label: string | undefined;
  dryRun?: boolean;
  now?: () => Date;
}

export interface SetLabelResult {
  outcome: RunOutcome;
  written: boolean;
  entry: LabelEntry;
  targetId: string;
  /** The label pi will show; null when cleared. */
  label: string | null;
  previousLabel: string | null;
}

export function setLabel(options: SetLabelOptions): SetLabelResult {
  const { session, targetId } = options;
  requireEntry(session, targetId, "label target");
  const label = options.label?.trim() || undefined;
  const dialect = writerAgent(session, options);
  checkWritable(session, { dialect });
  const planned = planAppend(session, [{ type: "label", targetId, label }], { now: options.now, dialect });
  const entry = planned.entries[0] as LabelEntry;
  const previousLabel = session.index.labelOf(targetId) ?? null;
  const result = { entry, targetId, label: label ?? null, previousLabel };
  if (options.dryRun) return { outcome: "dry-run", written: false, ...result };
  commitAppend(planned);
  return { outcome: "written", written: true, ...result };
}
