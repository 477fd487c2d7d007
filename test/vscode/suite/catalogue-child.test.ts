// The cold catalogue fill in a child process, in the real extension host: the
// extension's own bundle (dist/catalogue-fill.js) forked with the host's
// runtime (Electron or code-server's Node, ELECTRON_RUN_AS_NODE) gives the
// rows of the in-process read; a child that cannot run leaves them to the
// in-process read; Restricted Mode launches no process.
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CatalogueRow } from "../../../src/core/catalogue/catalogue-row";
import { childBulkReader, CHILD_MIN_FILES } from "../../../src/core/catalogue/child-bulk-reader";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue";
import { catalogueChild } from "../../../src/extension/catalogue-child";
import { EXTENSION_ID } from "./extension-under-test";
import { BRANCHED_ID, copySession, LINEAR_ID, scratchDir } from "./helpers";

const byPath = (rows: CatalogueRow[]) => [...rows].sort((a, b) => a.path.localeCompare(b.path));

suite("Catalogue child process @restricted: a cold fill read outside the host", () => {
  let folder: string;
  let files: string[];
  let script: string;
  let caches = 0;
  const cache = () => join(folder, `cache-${caches++}`);

  suiteSetup(() => {
    folder = join(scratchDir(), `catalogue-child-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    files = [];
    for (let i = 0; i < CHILD_MIN_FILES + 20; i++) files.push(copySession(i % 2 ? BRANCHED_ID : LINEAR_ID, folder));
    script = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, "dist", "catalogue-fill.js");
  });
  suiteTeardown(() => rmSync(folder, { recursive: true, force: true }));

  test("a cold listing of many files through the bundled child gives the in-process rows", async () => {
    const expected = byPath(await (await SessionCatalogue.open(cache())).list(files));
    assert.equal(expected.length, files.length);
    const catalogue = await SessionCatalogue.open(cache());
    const warnings: string[] = [];
    const progress: number[] = [];
    const rows = await catalogue.list(files, (p) => progress.push(p.done), childBulkReader(script, { warn: (m) => warnings.push(m) }));
    assert.deepEqual(warnings, []);
    assert.equal(catalogue.stats.readByChild, files.length, "every file read by the child");
    assert.ok(catalogue.stats.childCpuMs > 0);
    assert.deepEqual(byPath(rows), expected);
    assert.equal(progress.at(-1), files.length);
    await catalogue.save();
    const again = await SessionCatalogue.open(catalogue.folder);
    assert.deepEqual(byPath(await again.list(files)), expected);
    assert.equal(again.stats.read, 0, "the saved catalogue answers from its records");
  });

  test("a child that cannot start: the rows read in the host, one warning", async () => {
    const expected = byPath(await (await SessionCatalogue.open(cache())).list(files));
    const catalogue = await SessionCatalogue.open(cache());
    const warnings: string[] = [];
    const rows = await catalogue.list(files, undefined, childBulkReader(join(folder, "no-such-script.js"), { warn: (m) => warnings.push(m) }));
    assert.deepEqual(byPath(rows), expected);
    assert.equal(catalogue.stats.readByChild, 0);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /catalogue reader process stopped \(.*; \d+ sessions left to read\); sessions are read in this process, no sums ahead; tried again in 30 s/);
  });

  test("the extension forks the child only in a trusted workspace", () => {
    const log = vscode.window.createOutputChannel("catalogue child test", { log: true });
    try {
      const reader = catalogueChild(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, log)();
      assert.equal(reader !== undefined, vscode.workspace.isTrusted);
      assert.equal(vscode.workspace.isTrusted, process.env.PI_SESSIONS_TEST_TRUSTED === "1");
    } finally {
      log.dispose();
    }
  });
});
