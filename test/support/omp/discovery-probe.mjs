// Run by Bun (discovery-oracle.ts) under a chosen HOME/TMPDIR/omp environment:
// omp 18.3.4's own answers about where sessions live and what /resume lists.
// argv: <cli-oracle.js> <request JSON>. Prints one JSON document.
const [oracleJs, requestJson] = process.argv.slice(2);
const request = JSON.parse(requestJson);
const bundle = await import(oracleJs);
bundle.__OMP_MODULES_INIT();
const registry = bundle.__OMP_MODULES;
const utils = await registry["@oh-my-pi/pi-utils"]();
const { SessionManager } = await registry["@oh-my-pi/pi-coding-agent/session/session-manager"]();
const listing = await registry["@oh-my-pi/pi-coding-agent/session/session-listing"]();
const { FileSessionStorage } = await registry["@oh-my-pi/pi-coding-agent/session/session-storage"]();
const storage = new FileSessionStorage();
const info = (s) => ({ path: s.path, id: s.id, cwd: s.cwd, title: s.title ?? null, firstMessage: s.firstMessage });
// Sessions omp writes itself (SessionManager.create(cwd, sessionDir), one turn, flushed): it records files outside its root.
const created = [];
for (const { cwd, sessionDir, text } of request.create ?? []) {
  const sm = SessionManager.create(cwd, sessionDir);
  sm.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
  sm.appendMessage({ role: "assistant", content: [{ type: "text", text: "ok" }], api: "openai-completions", provider: "fake", model: "fake", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 });
  await sm.flush();
  created.push(sm.getSessionFile());
  await sm.close();
}
// omp renames sessions itself (setSessionName: the slot, a title_change, history.db's session_titles), or only opens them.
for (const { path, title } of request.renameByOmp ?? []) {
  const sm = await SessionManager.open(path);
  if (title !== undefined) await sm.setSessionName(title, "user");
  await sm.flush();
  await sm.close();
}
const out = {
  created,
  customSessionFilesDir: utils.getCustomSessionFilesDir(),
  terminalSessionsDir: utils.getTerminalSessionsDir(),
  agentDir: utils.getAgentDir(),
  sessionsDir: utils.getSessionsDir(),
  blobsDir: utils.getBlobsDir(),
};
// Listing first: finding a cwd's folder renames legacy folders.
out.listAll = (await listing.listAllSessions(storage)).map(info);
out.listDirs = {};
for (const dir of request.listDirs ?? []) out.listDirs[dir] = (await listing.listSessionsReadOnly(dir, storage)).map(info);
// The welcome screen's recent sessions (names from history.db first).
out.recent = {};
for (const dir of request.recentDirs ?? []) out.recent[dir] = (await listing.getRecentSessions(dir, 10, storage)).map((s) => ({ path: s.path, name: s.name }));
out.folders = {};
for (const cwd of request.cwds ?? []) out.folders[cwd] = SessionManager.getDefaultSessionDir(cwd);
console.log(JSON.stringify(out));
