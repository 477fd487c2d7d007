// Which models omp counts with a native tokenizer (so our byte estimate is only
// an estimate, `tokensExact: false`): our table (native-tokenizer-models.json,
// extracted from omp 18.3.4's catalog) against omp's own catalog and Tokenizer,
// model by model.

import { join } from "node:path";
import { expect, it } from "vitest";
import NATIVE from "../../../src/core/agent/omp-18/native-tokenizer-models.json";
import { nativeTokenizerFamily } from "../../../src/core/agent/omp-18/tokenizer.js";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp } from "../../support/omp/oracle.js";

const table = NATIVE as Record<string, Record<string, string[]>>;
const listed = Object.entries(table).flatMap(([provider, families]) => Object.values(families).flatMap((ids) => ids.map((id) => `${provider}/${id}`)));
const others = ["openai/gpt-5", "openai/gpt-4o", "google/gemini-2.5-pro", "fake/claude-opus-4-5", "fake/fake-coder", ...Object.keys(table).map((p) => `${p}/no-such-model`)];

describeOmp("native tokenizers: our table is omp's catalog", (oracle) => {
  it("every listed model has omp's family, and the others have none", async () => {
    expect(listed.length).toBeGreaterThan(1000);
    const answers = await oracle().answers({ file: join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), tokenizerModels: [...listed, ...others] });
    const split = (key: string) => ({ provider: key.slice(0, key.indexOf("/")), modelId: key.slice(key.indexOf("/") + 1) });
    const ours = answers.tokenizers.map((t) => ({ model: t.model, family: nativeTokenizerFamily(split(t.model)) ?? null, native: nativeTokenizerFamily(split(t.model)) !== undefined }));
    expect(ours).toEqual(answers.tokenizers.map((t) => ({ model: t.model, family: t.native ? t.family : null, native: t.native })));
  });
});
