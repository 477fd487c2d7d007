// The exact texts pi 0.73.1 (messages.js) wraps summaries in before the model
// sees them. Byte-equal to pi: the differential suite compares the result.

export const COMPACTION_SUMMARY_PREFIX = `The conversation history before this point was compacted into the following summary:

<summary>
`;

export const COMPACTION_SUMMARY_SUFFIX = `
</summary>`;

export const BRANCH_SUMMARY_PREFIX = `The following is a summary of a branch that this conversation came back from:

<summary>
`;

/** No newline before the closing tag, unlike the compaction suffix (as in pi). */
export const BRANCH_SUMMARY_SUFFIX = `</summary>`;
