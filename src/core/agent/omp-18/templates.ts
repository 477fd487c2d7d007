// The fixed texts omp 18.3.4 wraps summaries in (agent-core
// compaction/prompts/*.md, as bundled in 18.3.4), rendered by prompt-format.ts.

export const COMPACTION_SUMMARY_TEMPLATE =
  "Prior model work/tool state available.\nMUST build on prior work; NEVER duplicate prior work.\n\n<summary>\n{{summary}}\n</summary>\n";

export const HANDOFF_SUMMARY_TEMPLATE =
  "Context replaced. The <handoff> below is a handoff document a prior instance of you wrote from the full conversation. It is your own working memory, not user input.\n" +
  "- First person inside it refers to you (the prior instance).\n" +
  '- "Next Steps" is your own resumed plan; re-check it against the latest user message before acting.\n' +
  "- The handoff already exists and is complete: NEVER write another handoff document unless the user explicitly asks.\n" +
  "MUST build on prior work; NEVER duplicate prior work.\n\n<handoff>\n{{summary}}\n</handoff>\n";

export const BRANCH_SUMMARY_TEMPLATE = "Branch-return summary:\n\n<summary>\n{{summary}}\n</summary>\n";
