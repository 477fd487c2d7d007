// `/compact -p NAME focus…` and `/compact --preset NAME focus…`: pi passes
// everything after /compact as custom instructions; a leading preset flag
// picks the preset and the rest is the focus text. Anything else is pi's own
// syntax, untouched (the whole text is the focus).

export interface PresetFlags {
  preset?: string;
  /** The focus text, undefined when empty. */
  focus?: string;
}

const FLAG = /^\s*(?:-p|--preset)(?:\s+|=)("[^"]+"|'[^']+'|\S+)(?:\s+|$)/;

export function parsePresetFlags(customInstructions: string | undefined): PresetFlags {
  if (customInstructions === undefined) return {};
  const match = FLAG.exec(customInstructions);
  if (!match) {
    const focus = customInstructions.trim();
    return focus ? { focus: customInstructions } : {};
  }
  const preset = match[1]!.replace(/^(["'])(.*)\1$/, "$2");
  const rest = customInstructions.slice(match[0].length).trim();
  return { preset, ...(rest ? { focus: rest } : {}) };
}
