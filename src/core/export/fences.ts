// Markdown code fences that hold any text: longer than every backtick run in it.
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

export function fenced(text: string, info = ""): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${fence}`;
}
