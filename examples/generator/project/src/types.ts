export type Priority = "low" | "normal" | "high";

export const PRIORITIES: readonly Priority[] = ["low", "normal", "high"];

export interface Todo {
  id: number;
  text: string;
  priority: Priority;
  tags: string[];
  createdAt: string;
  due?: string;
}

/** Shape of the file on disk. Bump `version` on incompatible changes. */
export interface TodoFile {
  version: 1;
  nextId: number;
  todos: Todo[];
}

/** Everything the CLI touches outside the store, so tests can fake it. */
export interface Io {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: Record<string, string | undefined>;
  now: () => Date;
  isTty: boolean;
}
