import { homedir } from "node:os";
import { join, resolve } from "node:path";

export const DEFAULT_FILE_NAME = ".todo.json";

type Env = Record<string, string | undefined>;

/** Where the list lives: $TODO_FILE if set, else ~/.todo.json. */
export function resolveTodoFile(env: Env, home: string = homedir()): string {
  const fromEnv = env.TODO_FILE?.trim();
  if (fromEnv) return resolve(fromEnv);
  return join(home, DEFAULT_FILE_NAME);
}

/** NO_COLOR wins over FORCE_COLOR, which wins over the terminal check. */
export function useColor(env: Env, isTty: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR === "1" || env.FORCE_COLOR === "true") return true;
  return isTty;
}
