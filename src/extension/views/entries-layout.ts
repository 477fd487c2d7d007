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

/**
 * Numbers by entry position (the index's file order), in a typed array that
 * grows: what a Map keyed by entry id held, without a map entry per entry (a
 * 100 MB session's run holds ~100,000).
 */
export class PositionSlots {
  private slots = new Int32Array(0);

  /** The number at `position`, -1 when none. */
  get(position: number): number {
    return position >= 0 && position < this.slots.length ? this.slots[position]! - 1 : -1;
  }

  set(position: number, value: number): void {
    if (position >= this.slots.length) {
      const grown = new Int32Array(Math.max(position + 1, this.slots.length * 2, 64));
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[position] = value + 1;
  }

  delete(position: number): void {
    if (position >= 0 && position < this.slots.length) this.slots[position] = 0;
  }
}

export class RunLayout {
  /** Every entry of the run, in order (shown or not). */
  readonly ids: string[] = [];
  /** The entries shown under the filter. */
  readonly rows: string[] = [];
  /** Indices into rows where a turn starts (rows[0] always starts one). */
  readonly turnStarts: number[] = [];
  /** Row of each shown entry, by the entry's position in the index. */
  private readonly rowAt = new PositionSlots();

  /** `slot`: the run's number in its model (what PositionSlots hold for its entries). */
  constructor(
    readonly headId: string,
    readonly slot = 0,
  ) {}

  get tail(): string {
    return this.ids[this.ids.length - 1] ?? this.headId;
  }

  get folded(): boolean {
    return this.rows.length > FLAT_LIMIT;
  }

  /** Adds the entry `id` at index position `position`. */
  push(id: string, position: number, visible: boolean, startsTurn: boolean): void {
    this.ids.push(id);
    if (!visible) return;
    if (startsTurn || this.rows.length === 0) this.turnStarts.push(this.rows.length);
    this.rowAt.set(position, this.rows.length);
    this.rows.push(id);
  }

  /** Hides the last row again (the old leaf under a filter once pi wrote past it). */
  popRow(id: string, position: number): boolean {
    if (this.rows[this.rows.length - 1] !== id || this.rowAt.get(position) !== this.rows.length - 1) return false;
    this.rows.pop();
    this.rowAt.delete(position);
    if (this.turnStarts[this.turnStarts.length - 1] === this.rows.length) this.turnStarts.pop();
    return true;
  }

  /** The row of the entry at index position `position`, if it is shown in this run. */
  rowOf(position: number): number | undefined {
    const row = this.rowAt.get(position);
    return row < 0 ? undefined : row;
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

  /** The turn whose head is the entry at this index position, if it heads one. */
  turnHeadedBy(position: number): number | undefined {
    const row = this.rowOf(position);
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
