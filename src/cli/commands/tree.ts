import { entryKind, entryPreview } from "../../core/tree/preview";
import { displayRows } from "../../core/tree/segments";
import type { LoadedSession } from "../../core/session/open/open-session";
import type { Command } from "../command";
import { printJson, printLines } from "../output";
import { loadSession, requireFileArg, resolveLeaf } from "../session-input";
import { sessionSemantics } from "../session-semantics";

function childIds(session: LoadedSession, id: string): string[] {
  return session.index.children(id).map((m) => m.id);
}

export const treeCommand: Command = {
  name: "tree",
  usage: "tree FILE [--leaf ID] [--agent pi|omp] [--pi-version 0.73|1.5] [--json]",
  summary: "The entry tree: id, type, a preview, labels, branch points, and the current leaf.",
  flags: { leaf: { value: true } },
  async run(ctx) {
    const session = await loadSession(ctx, requireFileArg(ctx));
    const leafId = resolveLeaf(ctx, session);
    const index = session.index;
    const onLeafPath = new Set(leafId ? index.pathIds(leafId) : []);
    const { semantics, tags } = sessionSemantics(ctx, session);
    const name = semantics.sessionName({ sessionInfoName: index.sessionName, titleSlot: session.titleSlot, header: session.header });
    if (ctx.json) {
      printJson(ctx, {
        ...tags,
        leafId,
        name,
        version: session.version,
        nodes: index.entries.map((m) => ({
          id: m.id,
          parentId: m.parentId,
          type: m.type,
          ...(m.role !== undefined ? { role: m.role } : {}),
          children: childIds(session, m.id),
          line: m.line,
          label: index.labelOf(m.id) ?? null,
          onLeafPath: onLeafPath.has(m.id),
          preview: entryPreview(session.entryAt(m)),
        })),
      });
      return 0;
    }
    const tree = { childIds: (id: string) => childIds(session, id) };
    const rows = displayRows(tree, index.roots.map((m) => m.id));
    const lines: string[] = [];
    const title = name ? `"${name}" ` : "";
    lines.push(`${title}${session.path} (v${session.version}, ${index.size} entries, leaf ${leafId ?? "none"})`);
    for (const row of rows) {
      const meta = index.get(row.id);
      if (!meta) continue;
      const marks: string[] = [];
      const label = index.labelOf(row.id);
      if (label) marks.push(`[${label}]`);
      if (row.childCount > 1) marks.push(`⑂${row.childCount}`);
      if (row.id === leafId) marks.push("← leaf");
      const pathMark = row.id === leafId ? "*" : onLeafPath.has(row.id) ? "│" : " ";
      const preview = entryPreview(session.entryAt(meta), 72);
      lines.push(`${pathMark} ${"  ".repeat(row.depth)}${row.id} ${entryKind(meta)}  ${preview}${marks.length ? `  ${marks.join(" ")}` : ""}`);
    }
    if (index.unreachable.length > 0) {
      lines.push(`entries in a parent cycle (no root reaches them):`);
      for (const meta of index.unreachable) lines.push(`  ${meta.id} ${entryKind(meta)}  ${entryPreview(session.entryAt(meta), 72)}`);
    }
    printLines(ctx, lines);
    return 0;
  },
};
