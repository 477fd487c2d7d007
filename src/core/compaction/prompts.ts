// pi 0.73.1's summarisation prompts (compaction/compaction.js, utils.js),
// copied verbatim: the differential suite checks them against the requests pi
// itself sends.

/** System prompt of every summarisation call (compaction and branch summaries). */
export const SUMMARIZATION_SYSTEM_PROMPT = `You are a context summarization assistant. Your task is to read a conversation between a user and an AI coding assistant, then produce a structured summary following the exact format specified.

Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary.`;

/** Instructions for a first compaction (no previous summary). */
export const SUMMARIZATION_PROMPT = `The messages above are a conversation to summarize. Create a structured context checkpoint summary that another LLM will use to continue the work.

Use this EXACT format:

## Goal
[What is the user trying to accomplish? Can be multiple items if the session covers different tasks.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by user]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, examples, or references needed to continue]
- [Or "(none)" if not applicable]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

/** Instructions when a previous summary is merged with new messages. */
export const UPDATE_SUMMARIZATION_PROMPT = `The messages above are NEW conversation messages to incorporate into the existing summary provided in <previous-summary> tags.

Update the existing structured summary with new information. RULES:
- PRESERVE all existing information from the previous summary
- ADD new progress, decisions, and context from the new messages
- UPDATE the Progress section: move items from "In Progress" to "Done" when completed
- UPDATE "Next Steps" based on what was accomplished
- PRESERVE exact file paths, function names, and error messages
- If something is no longer relevant, you may remove it

Use this EXACT format:

## Goal
[Preserve existing goals, add new ones if the task expanded]

## Constraints & Preferences
- [Preserve existing, add new ones discovered]

## Progress
### Done
- [x] [Include previously done items AND newly completed items]

### In Progress
- [ ] [Current work - update based on progress]

### Blocked
- [Current blockers - remove if resolved]

## Key Decisions
- **[Decision]**: [Brief rationale] (preserve all previous, add new)

## Next Steps
1. [Update based on current state]

## Critical Context
- [Preserve important context, add new if needed]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

/** Instructions for the prefix of a split turn. */
export const TURN_PREFIX_SUMMARIZATION_PROMPT = `This is the PREFIX of a turn that was too large to keep. The SUFFIX (recent work) is retained.

Summarize the prefix to provide context for the retained suffix:

## Original Request
[What did the user ask for in this turn?]

## Early Progress
- [Key decisions and work done in the prefix]

## Context for Suffix
- [Information needed to understand the retained recent work]

Be concise. Focus on what's needed to understand the kept suffix.`;

// pi 1.5.2's changes (compaction/utils.js, compaction.js); the history and
// update prompts are byte-identical in 1.5.2.

/** pi 1.5: "…an AI assistant…" (0.73: "…an AI coding assistant…"). */
export const SUMMARIZATION_SYSTEM_PROMPT_1_5 = `You are a context summarization assistant. Your task is to read a conversation between a user and an AI assistant, then produce a structured summary following the exact format specified.

Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary.`;

/** pi 1.5's instructions for the prefix of a split turn (laid out after `# Conversation` / `# Instructions`). */
export const TURN_PREFIX_SUMMARIZATION_PROMPT_1_5 = `The messages above are earlier context from an ongoing conversation. Later messages are stored separately and do not need to be reconstructed.

Create a concise checkpoint of the user's request and the progress shown above. This checkpoint will be placed before the later messages so the conversation can continue with the necessary context.

## Original Request
[What did the user ask for?]

## Progress So Far
- [Key decisions and work completed in these messages]

## Context Needed to Continue
- [Information from these messages needed to understand the later work]

Only summarize information explicitly present above. Do not infer or recreate later messages.`;

/** One pi version's summary prompts. */
export interface SummaryPrompts {
  system: string;
  history: string;
  update: string;
  turnPrefix: string;
  /** How the turn-prefix call lays out conversation and instructions. */
  turnPrefixLayout: "conversation-tags" | "markdown-headings";
}

export const SUMMARY_PROMPTS: Readonly<Record<"0.73" | "1.5", SummaryPrompts>> = Object.freeze({
  "0.73": {
    system: SUMMARIZATION_SYSTEM_PROMPT,
    history: SUMMARIZATION_PROMPT,
    update: UPDATE_SUMMARIZATION_PROMPT,
    turnPrefix: TURN_PREFIX_SUMMARIZATION_PROMPT,
    turnPrefixLayout: "conversation-tags",
  },
  "1.5": {
    system: SUMMARIZATION_SYSTEM_PROMPT_1_5,
    history: SUMMARIZATION_PROMPT,
    update: UPDATE_SUMMARIZATION_PROMPT,
    turnPrefix: TURN_PREFIX_SUMMARIZATION_PROMPT_1_5,
    turnPrefixLayout: "markdown-headings",
  },
});
