// Turn 4, later abandoned: `done` as a move into a separate archive file. The
// agent builds it, then lists what it does not like; the user goes back with
// /tree to the request itself (so its text returns to the editor) and asks
// pi to summarise the abandoned branch.
import { bash, edit, read, write } from "../lib/session-recorder.mjs";
import { tail } from "./01-explore.mjs";

const ARCHIVE_TS = `import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Todo } from "./types.js";

export interface DoneTodo extends Todo {
  doneAt: string;
}

interface ArchiveFile {
  version: 1;
  done: DoneTodo[];
}

/** Completed todos, kept out of the main list so it stays small. */
export class ArchiveStore {
  private data: ArchiveFile = { version: 1, done: [] };

  constructor(readonly file: string) {}

  static async open(file: string): Promise<ArchiveStore> {
    const archive = new ArchiveStore(file);
    await archive.load();
    return archive;
  }

  async load(): Promise<void> {
    let raw: string;
    try {
      raw = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as { code?: string }).code === "ENOENT") return;
      throw err;
    }
    const parsed = JSON.parse(raw) as Partial<ArchiveFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.done)) {
      throw new Error(\`\${this.file} is not a todo archive (expected version 1)\`);
    }
    this.data = { version: 1, done: parsed.done };
  }

  /** Same temp-file-and-rename dance as TodoStore.save. */
  async save(): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const tmp = \`\${this.file}.tmp\`;
    await writeFile(tmp, \`\${JSON.stringify(this.data, null, 2)}\\n\`, "utf8");
    await rename(tmp, this.file);
  }

  add(todo: Todo, now: Date): DoneTodo {
    const done: DoneTodo = { ...todo, doneAt: now.toISOString() };
    this.data.done.push(done);
    return done;
  }

  list(): DoneTodo[] {
    return [...this.data.done];
  }
}
`;

const RESOLVE_ARCHIVE = `

/** Completed todos live next to the list: ~/.todo.json → ~/.todo.done.json. */
export function resolveArchiveFile(todoFile: string): string {
  return todoFile.endsWith(".json") ? \`\${todoFile.slice(0, -".json".length)}.done.json\` : \`\${todoFile}.done\`;
}`;

const CMD_REMOVE_END = `  io.stdout(\`Removed #\${removed.id}: \${removed.text}\`);
  return 0;
}`;

const CMD_DONE_ARCHIVE = `

async function cmdDone(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const id = parseId(args.positional[0]);
  const todo = store.remove(id);
  if (!todo) throw new UsageError(\`No todo with id \${id}\`);
  const archive = await ArchiveStore.open(resolveArchiveFile(store.file));
  archive.add(todo, io.now());
  // Archive first: if the second write fails the todo is in both files, never in neither.
  await archive.save();
  await store.save();
  io.stdout(\`Done #\${todo.id}: \${todo.text}\`);
  return 0;
}`;

export const ARCHIVE_REQUEST =
  "Now `done`. I'd actually like completed todos to move out of the main list into an archive file next to it, so `~/.todo.json` stays small. " +
  "`todo done <id>` moves the todo there.";

export async function archiveBranch(s, ctx) {
  const request = s.user(ARCHIVE_REQUEST, 95000);

  await s.assistant({
    thinking:
      "The user prefers option (b), the archive file. I need: a path for the archive derived from the todo file, an ArchiveStore like TodoStore, and a done command that moves the todo. " +
      "Re-read config.ts for the path logic and store.ts for the load/save pattern to copy.",
    calls: [read("src/config.ts"), read("src/store.ts")],
  });

  await s.assistant({
    thinking:
      "A bare done.json next to ~/.todo.json would land in the home directory as ~/done.json, which is not nice. Derive it from the todo file name instead: " +
      "~/.todo.json → ~/.todo.done.json, tmp/todos.json → tmp/todos.done.json. ArchiveStore mirrors TodoStore: version 1, atomic save.",
    calls: [write("src/archive.ts", ARCHIVE_TS), edit("src/config.ts", [["  return isTty;\n}", `  return isTty;\n}${RESOLVE_ARCHIVE}`]])],
  });

  await s.assistant({
    thinking:
      "Now the command. Order of writes matters: save the archive first, then the store. If the second write fails the todo exists twice, which is recoverable; the other order could lose it.",
    calls: [
      edit("src/cli.ts", [
        ['import { flagBool, flagString, parseArgs, type ParsedArgs } from "./args.js";', 'import { ArchiveStore } from "./archive.js";\nimport { flagBool, flagString, parseArgs, type ParsedArgs } from "./args.js";'],
        ['import { resolveTodoFile, useColor } from "./config.js";', 'import { resolveArchiveFile, resolveTodoFile, useColor } from "./config.js";'],
        ["  todo rm <id>\n", "  todo rm <id>\n  todo done <id>\n"],
        ["        return await cmdRemove(store, args, io);\n", "        return await cmdRemove(store, args, io);\n      case \"done\":\n        return await cmdDone(store, args, io);\n"],
        [CMD_REMOVE_END, CMD_REMOVE_END + CMD_DONE_ARCHIVE],
      ]),
    ],
  });

  await s.assistant({
    thinking: "Type-check and run the existing suite before writing tests for the new command.",
    calls: [
      bash("npx tsc --noEmit -p . && npm test 2>&1 | tail -20", (p, c) => ({
        output: tail(ctx.vitest({ npmScript: "test", startedAt: c.now }).output, 20),
        ms: 4390,
      })),
    ],
  });

  const doubts = await s.assistant({
    thinking:
      "It compiles and the existing tests pass, but writing tests for this makes the problems obvious. Two files means two writes that are not atomic together. " +
      "list --json cannot include completed todos without opening a second file, and edit, rm and any future undo cannot reach archived todos. " +
      "ids are still unique because nextId stays in the main file, but that is the only thing that stays simple. I should raise this before writing the tests.",
    text:
      "`todo done <id>` now moves the todo into `<todo file>.done.json` (so `~/.todo.json` → `~/.todo.done.json`, not a bare `~/done.json` in your home directory). " +
      "It type-checks and the existing 64 tests pass. Before I write tests for it, some things I don't like about this design:\n\n" +
      "1. **Two writes.** `done` saves the archive, then the list. I ordered them so a crash in between duplicates the todo instead of losing it, but it's still not atomic.\n" +
      "2. **`--json` can't see completed todos** without opening and merging a second file.\n" +
      "3. **Archived todos are out of reach**: `edit`, `rm` and any future `undone` would all need archive-aware code paths.\n\n" +
      "A `done` flag on the todo in the same file avoids all three, at the cost of the file growing until you `clear` finished items. Want me to keep going with the archive, or switch?",
  });
  return { archiveRequest: request, abandonedLeaf: doubts.id };
}

/** The scripted model reply for pi's branch summary (pi adds its preamble and the file lists). */
export const ARCHIVE_BRANCH_SUMMARY = `## Goal
Add a \`todo done <id>\` command that moves completed todos out of \`~/.todo.json\` into a separate archive file.

## Constraints & Preferences
- Completed todos should leave the main list so it stays small
- Human-readable output must stay exactly as it is

## Progress
### Done
- [x] Created \`src/archive.ts\` with \`ArchiveStore\` (\`open\`, \`load\`, \`save\`, \`add\`, \`list\`), storing \`DoneTodo\` (\`Todo\` + \`doneAt\`) in a version 1 JSON file with the same temp-file-and-rename save as \`TodoStore\`
- [x] Added \`resolveArchiveFile(todoFile)\` to \`src/config.ts\` (\`~/.todo.json\` → \`~/.todo.done.json\`)
- [x] Added \`case "done"\` and \`cmdDone\` to \`src/cli.ts\`: removes the todo from \`TodoStore\`, appends it to the archive, saves the archive first and then the list
- [x] \`npx tsc --noEmit -p .\` is clean and the existing 64 tests pass

### In Progress
- [ ] No tests for \`todo done\` yet

### Blocked
- The design itself: the two writes are not atomic together, \`list --json\` cannot show completed todos without reading a second file, and archived todos are out of reach for \`edit\`, \`rm\` and a future undo

## Key Decisions
- **Archive path derived from the todo file**: \`<name>.done.json\` instead of \`done.json\`, to avoid a bare \`~/done.json\` in the home directory
- **Archive saved before the list**: a crash in between duplicates a todo instead of losing it

## Next Steps
1. Decide between the archive file and a \`done\` flag on each todo in the main file
2. Write tests for \`todo done\` once the design is settled`;
