// omp's own logins, as omp 18.3.4 keeps them: the `auth_credentials` table of
// its SQLite `agent.db` (`omp /login`: API keys and OAuth tokens, one row per
// credential, `data` JSON; a row with a `disabled_cause` is not used). Read,
// never written, with `node:sqlite` where the runtime has it (Node ≥ 22.13:
// VS Code's extension host; the CLI on such a Node) — opened read-only, so a
// running omp (WAL) is neither blocked nor changed. Node 20 has no SQLite:
// the store is then reported unread, and the no-key error says so.

import { NO_SQLITE, type SqliteDatabase, type SqliteModule } from "../fs/index.js";

export type OmpCredential =
  /** `login`: stored by `/login` (omp prefers it over the provider's variable); other keys come after it. */
  | { type: "api_key"; key: string; login: boolean }
  | { type: "oauth"; access: string | undefined; expires: number | undefined; enterpriseUrl?: string; apiEndpoint?: string };

export interface OmpCredentials {
  readonly file: string;
  /** Why the store could not be read (no SQLite in this runtime, a damaged file); undefined when read or absent. */
  readonly unread?: string;
  /** The provider's active credentials, in omp's order (by row id). */
  of(provider: string): readonly OmpCredential[];
}

interface Row {
  provider: unknown;
  credential_type: unknown;
  data: unknown;
}

/** One row as omp's store reads it (JN in omp's bundle): bad JSON or an unknown type is skipped. */
function credentialOf(row: Row): OmpCredential | undefined {
  if (typeof row.data !== "string") return undefined;
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    return undefined;
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return undefined;
  const fields = data as Record<string, unknown>;
  if (row.credential_type === "api_key") {
    return typeof fields.key === "string" ? { type: "api_key", key: fields.key, login: fields.source === "login" } : undefined;
  }
  if (row.credential_type === "oauth") {
    return {
      type: "oauth",
      access: typeof fields.access === "string" ? fields.access : undefined,
      expires: typeof fields.expires === "number" ? fields.expires : undefined,
      ...(typeof fields.enterpriseUrl === "string" ? { enterpriseUrl: fields.enterpriseUrl } : {}),
      ...(typeof fields.apiEndpoint === "string" ? { apiEndpoint: fields.apiEndpoint } : {}),
    };
  }
  return undefined;
}

function store(file: string, byProvider: Map<string, OmpCredential[]>, unread?: string): OmpCredentials {
  return { file, ...(unread ? { unread } : {}), of: (provider) => byProvider.get(provider) ?? [] };
}

export function readOmpCredentials(file: string, options: { sqlite?: SqliteModule | undefined; exists: (path: string) => boolean }): OmpCredentials {
  const byProvider = new Map<string, OmpCredential[]>();
  if (!options.exists(file)) return store(file, byProvider);
  const sqlite = options.sqlite;
  if (!sqlite) return store(file, byProvider, NO_SQLITE);
  let db: SqliteDatabase | undefined;
  try {
    db = new sqlite.DatabaseSync(file, { readOnly: true, timeout: 2000 });
    const rows = db.prepare("SELECT provider, credential_type, data FROM auth_credentials WHERE disabled_cause IS NULL ORDER BY id ASC").all() as Row[];
    for (const row of rows) {
      const credential = credentialOf(row);
      if (!credential || typeof row.provider !== "string") continue;
      const list = byProvider.get(row.provider) ?? [];
      list.push(credential);
      byProvider.set(row.provider, list);
    }
    return store(file, byProvider);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A store omp has not made its credentials table in yet holds no login.
    if (/no such table/i.test(message)) return store(file, new Map());
    return store(file, new Map(), message);
  } finally {
    db?.close();
  }
}
