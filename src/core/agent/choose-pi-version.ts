// Which semantics apply to one session (shared/spec/cli.md, "Which pi"): an
// explicit choice (--pi-version, a VS Code setting other than auto) wins; else a
// session holding any 1.x marker is 1.5; else the pi the user has (a setting
// naming it, else the `pi` on PATH); else 0.73.

import type { EntryMeta } from "../session/format/entry-meta.js";
import type { SessionIndex } from "../session/index/session-index.js";
import type { SessionEntry } from "../session/format/types.js";
import { findInstalledPi, type InstalledPi } from "./installed-pi.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { sessionPi1xMarker, type Pi1xMarker } from "../session/dialect/pi1x-markers.js";

export type PiVersionSource = "explicit" | "session" | "installed-setting" | "installed-pi" | "default";

export interface PiVersionChoice {
  version: PiVersion;
  source: PiVersionSource;
  /** Why, in words: "--pi-version", "system message on line 4", "pi 1.5.2 at /usr/bin/pi", … */
  reason: string;
  marker?: Pi1xMarker;
}

export interface ChoosePiVersionInput {
  explicit?: PiVersion;
  /** What `explicit` came from, for the reason (default "--pi-version"). */
  explicitFrom?: string;
  session?: { readonly index: SessionIndex; entryAt(meta: EntryMeta): SessionEntry };
  /** The session's first 1.x marker when already known (instead of `session`); null: it has none. */
  marker?: Pi1xMarker | null;
  /** The version of pi the user has, when a setting says so. */
  installed?: PiVersion;
  env?: Readonly<Record<string, string | undefined>>;
  /** Default: findInstalledPi (the `pi` on PATH); injectable for tests. */
  findPi?: (env: Readonly<Record<string, string | undefined>>) => InstalledPi | undefined;
}

const installedCache = new Map<string, InstalledPi | undefined>();

function cachedInstalledPi(env: Readonly<Record<string, string | undefined>>): InstalledPi | undefined {
  const key = env.PATH ?? env.Path ?? "";
  if (!installedCache.has(key)) installedCache.set(key, findInstalledPi(env));
  return installedCache.get(key);
}

export function choosePiVersion(input: ChoosePiVersionInput): PiVersionChoice {
  if (input.explicit) return { version: input.explicit, source: "explicit", reason: input.explicitFrom ?? "--pi-version" };
  const marker = input.session ? sessionPi1xMarker(input.session) : (input.marker ?? undefined);
  if (marker) return { version: "1.5", source: "session", reason: `pi 1.x ${marker.what} on line ${marker.line}`, marker };
  if (input.installed) return { version: input.installed, source: "installed-setting", reason: "the installed pi named in the settings" };
  const env = input.env ?? process.env;
  const installed = input.findPi ? input.findPi(env) : cachedInstalledPi(env);
  if (installed) {
    return {
      version: installed.version,
      source: "installed-pi",
      reason: `${installed.packageName} ${installed.packageVersion} (${installed.command})`,
    };
  }
  return { version: "0.73", source: "default", reason: "no pi 1.x marker in the session and no pi found on PATH" };
}
