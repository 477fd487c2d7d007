// How one linear run of the Entries view is laid out: its visible rows and the
// turns they fold into (a user message, compaction or branch summary holding
// the assistant and tool entries after it). A run of at most FLAT_LIMIT rows is
// shown flat (as pi's /tree does); a longer one shows its turns, the newest
// TURN_PAGE of them, older ones behind a "Load earlier…" row; a turn with more
// than ENTRY_PAGE entries is paged the same way. A layout grows in place when
// pi appends to the run's last entry, so a write costs work for the new rows only.

/** Longest run shown flat. */
export const FLAT_LIMIT = 200;
/** Turns shown at first (and added by each "Load earlier…"). */
export const TURN_PAGE = 50;
/** Entries of one turn shown at first (and added by each "Load earlier…"). */
export const ENTRY_PAGE = 200;

export class RunLayout {
  /** Every entry of the run, in order (shown or not). */
  readonly ids: string[] = [];
  /** The entries shown under the filter. */
  readonly rows: string[] = [];
  /** Indices into rows where a turn starts (rows[0] always starts one). */
  readonly turnStarts: number[] = [];
  private readonly rowIndex = new Map<string, number>();

  constructor(readonly headId: string) {}

  get tail(): string {
    return this.ids[this.ids.length - 1] ?? this.headId;
  }

  get folded(): boolean {
    return this.rows.length > FLAT_LIMIT;
  }

  push(id: string, visible: boolean, startsTurn: boolean): void {
    this.ids.push(id);
    if (!visible) return;
    if (startsTurn || this.rows.length === 0) this.turnStarts.push(this.rows.length);
    this.rowIndex.set(id, this.rows.length);
    this.rows.push(id);
  }

  /** Hides the last row again (the old leaf under a filter once pi wrote past it). */
  popRow(id: string): boolean {
    if (this.rows[this.rows.length - 1] !== id) return false;
    this.rows.pop();
    this.rowIndex.delete(id);
    if (this.turnStarts[this.turnStarts.length - 1] === this.rows.length) this.turnStarts.pop();
    return true;
  }

  rowOf(id: string): number | undefined {
    return this.rowIndex.get(id);
  }

  get turnCount(): number {
    return this.turnStarts.length;
  }

  /** The turn a row is in (binary search over the starts). */
  turnOfRow(row: number): number {
    let lo = 0;
    let hi = this.turnStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.turnStarts[mid]! <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  turnHead(turn: number): string {
    return this.rows[this.turnStarts[turn]!]!;
  }

  /** Rows of a turn after its head. */
  turnMembers(turn: number): string[] {
    const start = this.turnStarts[turn]! + 1;
    const end = this.turnStarts[turn + 1] ?? this.rows.length;
    return this.rows.slice(start, end);
  }

  turnMemberCount(turn: number): number {
    return (this.turnStarts[turn + 1] ?? this.rows.length) - this.turnStarts[turn]! - 1;
  }

  /** The turn whose head is this entry, if it heads one. */
  turnHeadedBy(id: string): number | undefined {
    const row = this.rowIndex.get(id);
    if (row === undefined) return undefined;
    const turn = this.turnOfRow(row);
    return this.turnStarts[turn] === row ? turn : undefined;
  }
}

/**
 * A window of the newest `shown` items of a list of `total`: the first index
 * shown and how many are hidden before it.
 */
export function pageWindow(total: number, shown: number): { start: number; hidden: number } {
  const start = Math.max(0, total - shown);
  return { start, hidden: start };
}
