// The reader's view of one branch: the ids root→leaf that the filter shows,
// and pages of blocks cut from them, newest first. Only the entries of a page
// are parsed, so a 100 MB session shows its last turns without reading every
// body. `extend` follows pi's appends: the new entries below the shown leaf,
// and the earlier entries a new label or context edit changes.
import { blobsDirBeside } from "./snapcompact-frames";
import type { LoadedSession } from "../session/open/open-session";
import type { EntryMeta } from "../session/format/entry-meta";
import { entryBlock, replacementText } from "./entry-block";
import type { ContextEditMark, ReaderBlock } from "./reader-block";
import { shownUnderFilter, type ReaderFilter } from "./reader-filter";

export const PAGE_BLOCKS = 40;
export const PAGE_CHARS = 300_000;

export interface ReaderPage {
  blocks: ReaderBlock[];
  /** Position of the first block among the shown ids. */
  start: number;
  /** Shown ids in all (earlier pages can be loaded while start > 0). */
  total: number;
}

export interface ReaderExtension {
  /** Blocks of new entries, in order (to append). */
  appended: ReaderBlock[];
  /** Blocks of earlier entries whose label or context edit changed. */
  changed: ReaderBlock[];
}

/** The leaf below an entry: its newest child, repeatedly (the branch a click on an old entry means). */
export function leafBelow(session: LoadedSession, entryId: string): string {
  let id = entryId;
  const seen = new Set<string>();
  for (;;) {
    seen.add(id);
    const children = session.index.children(id);
    const next = children[children.length - 1];
    if (!next || seen.has(next.id)) return id;
    id = next.id;
  }
}

export class ReaderPager {
  private ids: string[] = [];
  private readonly edits = new Map<string, ContextEditMark>();
  private pathLeaf: string | null;

  /** omp's blob store beside the session's sessions root (snapcompact frames); null when there is none. */
  private blobsDir: string | null | undefined;

  constructor(
    private session: LoadedSession,
    leafId: string | null,
    readonly filter: ReaderFilter,
  ) {
    this.pathLeaf = leafId;
    const path = leafId === null ? [] : session.index.pathIds(leafId);
    this.take(path);
  }

  get leafId(): string | null {
    return this.pathLeaf;
  }

  get total(): number {
    return this.ids.length;
  }

  /** Position of an entry among the shown ids (-1: not shown). */
  indexOf(entryId: string): number {
    return this.ids.lastIndexOf(entryId);
  }

  /** The blocks of shown ids [from, to). */
  blocks(from: number, to: number): ReaderBlock[] {
    const out: ReaderBlock[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.ids.length); i++) out.push(this.block(this.ids[i]!));
    return out;
  }

  /** The page that ends before `end` (default: the newest page). */
  pageBefore(end = this.ids.length, maxBlocks = PAGE_BLOCKS, maxChars = PAGE_CHARS): ReaderPage {
    const blocks: ReaderBlock[] = [];
    let chars = 0;
    let i = Math.min(end, this.ids.length);
    while (i > 0 && blocks.length < maxBlocks && chars < maxChars) {
      i--;
      const block = this.block(this.ids[i]!);
      chars += block.text.length + (block.parts?.reduce((n, p) => n + (p.type === "toolCall" ? p.call.args.length : p.text.length), 0) ?? 0);
      // Images count by their base64 size: a page of screenshots stays a page.
      chars += block.images?.reduce((n, image) => n + image.data.length, 0) ?? 0;
      blocks.push(block);
    }
    return { blocks: blocks.reverse(), start: i, total: this.ids.length };
  }

  /**
   * The session after pi appended: the new entries below the shown leaf (the
   * leaf follows the session's when `follow`), or undefined when the shown
   * branch is not a prefix of the new one (start over).
   */
  extend(next: LoadedSession, follow: boolean): ReaderExtension | undefined {
    const newLeaf = follow ? next.index.leafId : this.pathLeaf;
    const added: string[] = [];
    let id = newLeaf;
    const seen = new Set<string>();
    while (id !== this.pathLeaf) {
      if (id === null || seen.has(id)) return undefined;
      seen.add(id);
      added.push(id);
      const meta = next.index.get(id);
      if (!meta) return undefined;
      id = meta.parentId;
    }
    this.session = next;
    this.pathLeaf = newLeaf;
    added.reverse();
    const before = this.ids.length;
    const touched = this.take(added);
    const appended = this.blocks(before, this.ids.length);
    const appendedIds = new Set(appended.map((b) => b.id));
    const changed = [...touched].filter((target) => !appendedIds.has(target) && this.ids.includes(target)).map((target) => this.block(target));
    return { appended, changed };
  }

  /** Adds path ids (in order) and returns the ids of entries whose label or edit they change. */
  private take(pathIds: readonly string[]): Set<string> {
    const touched = new Set<string>();
    const labelOf = (id: string) => this.session.index.labelOf(id);
    for (const id of pathIds) {
      const meta = this.session.index.get(id);
      if (!meta) continue;
      if (meta.type === "context_edit") this.noteEdit(meta, touched);
      if (meta.type === "label" && meta.targetId) touched.add(meta.targetId);
      if (shownUnderFilter(meta, this.filter, labelOf)) this.ids.push(id);
    }
    return touched;
  }

  private noteEdit(meta: EntryMeta, touched: Set<string>): void {
    const body = this.session.entryAt(meta) as unknown as Record<string, unknown>;
    if (typeof body.targetId !== "string") return;
    const replacement = body.replacement === null || body.replacement === undefined ? undefined : replacementText(body.replacement);
    this.edits.set(body.targetId, { editId: meta.id, ...(replacement !== undefined ? { replacement } : {}) });
    touched.add(body.targetId);
  }

  private block(id: string): ReaderBlock {
    const meta = this.session.index.get(id)!;
    this.blobsDir ??= blobsDirBeside(this.session.path) ?? null;
    const block = entryBlock(this.session.entryAt(meta), undefined, this.blobsDir ? { blobsDir: this.blobsDir } : {});
    const label = this.session.index.labelOf(id);
    const edit = this.edits.get(id);
    return { ...block, ...(label !== undefined ? { label } : {}), ...(edit ? { edit } : {}) };
  }
}
