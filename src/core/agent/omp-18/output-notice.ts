// The notice omp appends to a `!cmd` / python run's text for the model from its
// output `meta` (pi-tui tools/output-meta.ts formatOutputNotice, 18.2.9 = the
// 18.3.4 bundle): truncation ranges, artifact references, limits.

type Json = Record<string, any>;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)}GB`;
}

const fullOutputReference = (artifactId: string): string => `Read artifact://${artifactId} for full output`;
const locale = (n: number): string => n.toLocaleString("en-US");

function truncationNotice(truncation: Json, source: Json | undefined): string {
  let notice: string;
  const artifactReference =
    truncation.artifactId == null
      ? undefined
      : source?.type === "report"
        ? `Read artifact://${truncation.artifactId} for full report (${source.value})`
        : fullOutputReference(truncation.artifactId);
  if (truncation.direction === "middle") {
    const head = truncation.headRange;
    const tail = truncation.tailRange;
    const totalLines = truncation.totalLines;
    const elidedBytes = truncation.elidedBytes ?? Math.max(0, truncation.totalBytes - truncation.outputBytes);
    const elidedLines = truncation.elidedLines ?? Math.max(0, totalLines - truncation.outputLines);
    const headPart = head ? `lines ${head.start}-${head.end}` : "";
    const tailPart = tail ? `${tail.start}-${tail.end}` : "";
    if (headPart && tailPart) {
      notice = `Showing ${headPart} and ${tailPart} of ${totalLines}; ${locale(elidedLines)} middle line${elidedLines === 1 ? "" : "s"} (${formatBytes(elidedBytes)}) elided`;
    } else if (elidedBytes > 0) {
      notice = `Showing head and tail bytes of ${locale(totalLines)} line${totalLines === 1 ? "" : "s"}; ${formatBytes(elidedBytes)} elided`;
    } else {
      notice = `Showing ${Math.min(truncation.outputLines, totalLines)} of ${totalLines} lines; middle elided`; // omp's own words
    }
    if (truncation.nextOffset != null) notice += `. Use :${truncation.nextOffset} to continue`;
    if (artifactReference) notice += `. ${artifactReference}`;
    return notice;
  }
  if (truncation.partialLine) {
    const line = truncation.shownRange?.start ?? 1;
    notice = `Showing line ${line} (partial, ${formatBytes(truncation.outputBytes)} of ${formatBytes(truncation.totalBytes)}) of ${truncation.totalLines}`;
    if (artifactReference) notice += `. ${artifactReference}`;
    return notice;
  }
  const range = truncation.shownRange;
  if (range && range.end >= range.start) notice = `Showing lines ${range.start}-${range.end} of ${truncation.totalLines}`;
  else notice = `Showing ${truncation.outputLines} of ${truncation.totalLines} lines`; // omp's own words
  if (truncation.truncatedBy === "bytes") notice += ` (${formatBytes(truncation.maxBytes ?? truncation.outputBytes)} limit)`;
  if (truncation.nextOffset != null) notice += `. Use :${truncation.nextOffset} to continue`;
  if (artifactReference) notice += `. ${artifactReference}`;
  return notice;
}

/** omp's formatOutputNotice; LSP diagnostics (never on a bash or python run) are not rendered. */
export function formatOutputNotice(meta: unknown): string {
  if (!meta || typeof meta !== "object") return "";
  const m = meta as Json;
  const parts: string[] = [];
  if (m.truncation) parts.push(truncationNotice(m.truncation, m.source));
  if (m.artifactError) parts.push(`Full output was not saved completely (artifact ${m.artifactError} failed)`);
  const limits = m.limits;
  if (limits?.matchLimit) parts.push(`${limits.matchLimit.reached} matches limit reached. Use limit=${limits.matchLimit.suggestion} for more`); // omp's own words
  if (limits?.resultLimit) parts.push(`${limits.resultLimit.reached} results limit reached. Use limit=${limits.resultLimit.suggestion} for more`); // omp's own words
  if (limits?.headLimit) parts.push(`${limits.headLimit.reached} results limit reached. Use limit=${limits.headLimit.suggestion} for more`); // omp's own words
  if (limits?.columnTruncated) {
    const c = limits.columnTruncated;
    let columnNotice = `Some lines truncated to ${c.maxColumn} ${c.unit ?? "chars"}`;
    if (c.artifactId != null) columnNotice += `. ${fullOutputReference(c.artifactId)}`;
    parts.push(columnNotice);
  }
  return parts.length ? `\n\n[${parts.join(". ")}]` : "";
}
