// The sessions omp recorded outside its folders (custom-session-files,
// terminal breadcrumbs), followed record by record: each full look reads every
// record (`readAll`), and between looks one record created, changed or removed
// is read alone (`update`), saying which file it named before and names now. A
// file stays recorded while any record names it.
import { existingOf, ompRecordFolders, ompRecords, ompRecordTarget } from "../core/discovery/omp-recorded-sessions";
import type { ExtensionSettings } from "./settings";

export interface RecordUpdate {
  /** The file no record names any more. */
  gone?: string;
  /** The file a record names now that none named before (it may not exist yet). */
  named?: string;
}

export class OmpRecords {
  private readonly byRecord = new Map<string, string>();
  /** How many records name each file. */
  private readonly counts = new Map<string, number>();

  constructor(private readonly settings: () => Pick<ExtensionSettings, "omp">) {}

  /** omp's two record folders (none with omp discovery off). */
  folders(): string[] {
    const { omp } = this.settings();
    if (!omp.enabled) return [];
    const folders = ompRecordFolders(omp.agentDir);
    return [folders.customSessionFiles, folders.terminalSessions];
  }

  /** Every record read again: the recorded files that exist, sorted. */
  async readAll(): Promise<string[]> {
    const { omp } = this.settings();
    const records = omp.enabled ? await ompRecords(omp.agentDir) : new Map<string, string>();
    this.byRecord.clear();
    this.counts.clear();
    for (const [record, target] of records) this.set(record, target);
    return existingOf(this.counts.keys());
  }

  /** Every file a record names (existing or not). */
  targets(): string[] {
    return [...this.counts.keys()];
  }

  names(path: string): boolean {
    return this.counts.has(path);
  }

  /** One record created, changed or removed: read alone. */
  async update(record: string): Promise<RecordUpdate> {
    const { omp } = this.settings();
    if (!omp.enabled) return {};
    const target = await ompRecordTarget(record, ompRecordFolders(omp.agentDir), omp.sessionsRoot);
    const before = this.byRecord.get(record);
    if (before === target) return {};
    const update: RecordUpdate = {};
    if (before !== undefined) {
      this.byRecord.delete(record);
      const left = (this.counts.get(before) ?? 1) - 1;
      if (left > 0) this.counts.set(before, left);
      else {
        this.counts.delete(before);
        update.gone = before;
      }
    }
    if (target !== undefined) {
      if (!this.counts.has(target)) update.named = target;
      this.set(record, target);
    }
    return update;
  }

  private set(record: string, target: string): void {
    this.byRecord.set(record, target);
    this.counts.set(target, (this.counts.get(target) ?? 0) + 1);
  }
}
