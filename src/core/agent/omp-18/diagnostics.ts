// The reader's diagnostics said for omp (spec §2.3, §2.6): the reader words
// them for pi; for an omp session the consequences are omp's — a missing
// header makes omp refuse to resume (it never overwrites), malformed lines are
// skipped by omp's lenient parser too, a file without a final newline makes
// omp lose the next entry it appends.

import type { Diagnostic } from "../../diagnostics.js";

export function ompDiagnostic(d: Diagnostic): Diagnostic {
  switch (d.code) {
    case "missing-header":
      return d.message.includes("omp")
        ? d
        : { ...d, message: "the first parsed line is not a session header; omp would refuse to resume this file (and leave it unchanged); entries are shown, writing is refused" };
    case "invalid-json":
      return { ...d, message: d.message.replace("as pi skips it", "as omp skips it") };
    case "truncated-last-line":
      return { ...d, message: d.message.replace("skipped, as pi skips it", "skipped, as omp skips it; omp would glue the next entry it appends onto this line and lose that entry") };
    case "bom":
      return { ...d, message: "file starts with a UTF-8 BOM (omp ignores it)" };
    case "crlf":
      return { ...d, message: d.message.replace("pi ignores", "omp ignores") };
    case "misplaced-header":
      return { ...d, message: "a session header that is not the first parsed line; omp does not accept it as the header" };
    case "extra-header":
      return { ...d, message: d.message.replace("ignored as pi ignores it", "ignored") };
    default:
      return { ...d, message: d.message.replace("(pi would loop on it)", "(omp stops its walk there)").replace("(pi would loop on them)", "(omp stops its walk at the repeat)") };
  }
}
