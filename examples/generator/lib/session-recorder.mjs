// Plays a scripted conversation into pi's own SessionManager. Entries are
// appended with pi's API in the order pi's agent loop appends them; tool
// results come from pi's real read/edit/write/bash tools (run against the
// virtual project); the `!` command goes through pi's bash executor; the branch
// summary goes through pi's generateBranchSummary with a scripted model reply.
// Only the model's words, the usage numbers and the passage of time are ours.

const SYSTEM_PROMPT_TOKENS = 3182; // pi's system prompt + the four tool schemas
const TOKENS_PER_ESTIMATE = 1.17; // Claude's tokenizer vs pi's chars/4 estimate on code-heavy text
const CACHE_TTL_MS = 5 * 60 * 1000;

/** Tool-call specs for the scenario. `expectError: true` means the call must fail. */
export const read = (path, extra = {}) => ({ name: "read", args: { path, ...extra } });
export const edit = (path, edits, opts = {}) => ({
  name: "edit",
  args: { path, edits: edits.map(([oldText, newText]) => ({ oldText, newText })) },
  ...opts,
});
export const write = (path, content) => ({ name: "write", args: { path, content } });
/** `run(project, ctx)` changes the project like the command would and returns {output, exitCode, ms?}. */
export const bash = (command, run, opts = {}) => ({ name: "bash", args: { command }, run, ...opts });

export class SessionRecorder {
  constructor({ pi, piAi, bashExecutor, sm, clock, rng, project, model, fauxSummarizer }) {
    Object.assign(this, { pi, piAi, bashExecutor, sm, clock, rng, project, model, fauxSummarizer });
    this.pendingCommand = undefined;
    const ops = project.operations();
    const scriptedShell = {
      exec: async (command, _cwd, { onData }) => {
        const step = this.pendingCommand;
        if (!step || step.command !== command) throw new Error(`scenario bug: no script for command ${command}`);
        this.pendingCommand = undefined;
        const result = step.run(project, { now: new Date(clock.now()), rng });
        if (result.output) onData(Buffer.from(result.output, "utf8"));
        this.lastCommandMs = result.ms ?? rng.int(40, 400);
        return { exitCode: result.exitCode ?? 0 };
      },
    };
    this.scriptedShell = scriptedShell;
    this.tools = {
      read: pi.createReadTool(project.cwd, { operations: ops }),
      edit: pi.createEditTool(project.cwd, { operations: ops }),
      write: pi.createWriteTool(project.cwd, { operations: ops }),
      bash: pi.createBashTool(project.cwd, { operations: scriptedShell }),
    };
    /** assistant entry id → { promptTokens, requestedAt } */
    this.requests = new Map();
    this.counts = { user: 0, assistant: 0, toolResult: 0, bashExecution: 0, toolErrors: 0 };
    /** Ids of every `message` entry, in the order they were appended (for the checks after writing). */
    this.messageIds = [];
  }

  appendMessage(message) {
    const id = this.sm.appendMessage(message);
    this.messageIds.push(id);
    return id;
  }

  pause(ms) {
    this.clock.advance(ms);
  }

  modelChange() {
    return this.sm.appendModelChange(this.model.provider, this.model.id);
  }

  thinkingLevel(level, pauseMs = 4000) {
    this.pause(pauseMs);
    return this.sm.appendThinkingLevelChange(level);
  }

  name(text, pauseMs = 9000) {
    this.pause(pauseMs);
    return this.sm.appendSessionInfo(text);
  }

  label(targetId, text, pauseMs = 12000) {
    this.pause(pauseMs);
    return this.sm.appendLabelChange(targetId, text);
  }

  user(text, pauseMs = 45000) {
    this.pause(pauseMs);
    this.counts.user++;
    return this.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp: this.clock.now() });
  }

  /** A `!command` typed by the user: pi's executor runs it, the result is recorded like AgentSession.recordBashResult. */
  async userBash(command, run, pauseMs = 20000) {
    this.pause(pauseMs);
    this.pendingCommand = { command, run };
    const result = await this.bashExecutor.executeBashWithOperations(command, this.project.cwd, this.scriptedShell, {});
    this.pause(this.lastCommandMs);
    this.counts.bashExecution++;
    return this.appendMessage({
      role: "bashExecution",
      command,
      output: result.output,
      exitCode: result.exitCode,
      cancelled: result.cancelled,
      truncated: result.truncated,
      fullOutputPath: result.fullOutputPath,
      timestamp: this.clock.now(),
      excludeFromContext: undefined,
    });
  }

  /**
   * One model response: optional thinking and text, then tool calls, whose
   * results are appended after it (as pi's agent loop does).
   */
  async assistant({ thinking, text, calls = [] }) {
    this.pause(this.rng.int(250, 900)); // request latency before the first token
    const requestedAt = this.clock.now();
    const content = [];
    if (thinking) content.push({ type: "thinking", thinking, thinkingSignature: this.signature(thinking) });
    if (text) content.push({ type: "text", text });
    const toolCalls = calls.map((call) => ({ type: "toolCall", id: `toolu_01${this.rng.base62(22)}`, name: call.name, arguments: call.args }));
    content.push(...toolCalls);

    const message = {
      role: "assistant",
      content,
      api: this.model.api,
      provider: this.model.provider,
      model: this.model.id,
      usage: undefined,
      stopReason: calls.length > 0 ? "toolUse" : "stop",
      timestamp: requestedAt,
      responseId: `msg_01${this.rng.base62(22)}`,
    };
    message.usage = this.usageFor(message, requestedAt);
    this.pause(1200 + message.usage.output * this.rng.int(12, 18));
    const id = this.appendMessage(message);
    this.requests.set(id, { promptTokens: message.usage.input + message.usage.cacheRead + message.usage.cacheWrite, requestedAt });
    this.counts.assistant++;

    const resultIds = [];
    for (const [i, call] of calls.entries()) resultIds.push(await this.runTool(call, toolCalls[i].id));
    return { id, resultIds };
  }

  async runTool(call, toolCallId) {
    let result;
    let isError = false;
    this.lastCommandMs = undefined;
    if (call.name === "bash") this.pendingCommand = { command: call.args.command, run: call.run };
    try {
      result = await this.tools[call.name].execute(toolCallId, call.args);
    } catch (error) {
      // What pi-agent-core's createErrorToolResult makes of a throwing tool.
      result = { content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }], details: {} };
      isError = true;
    }
    if (isError !== (call.expectError === true)) {
      throw new Error(`scenario bug: ${call.name} ${JSON.stringify(call.args).slice(0, 120)} ${isError ? "failed" : "succeeded"} unexpectedly:\n${result.content[0].text}`);
    }
    this.pause(this.lastCommandMs ?? this.rng.int(3, 25));
    this.counts.toolResult++;
    if (isError) this.counts.toolErrors++;
    return this.appendMessage({
      role: "toolResult",
      toolCallId,
      toolName: call.name,
      content: result.content,
      details: result.details,
      isError,
      timestamp: this.clock.now(),
    });
  }

  /**
   * What pi's /tree does when the user goes back to `targetId` and asks for a
   * summary: pi's generateBranchSummary (scripted model reply), then
   * branchWithSummary on the new leaf (a user-message target's parent).
   */
  async branchWithSummary(targetId, modelReply, pauseMs = 30000) {
    this.pause(pauseMs);
    const oldLeafId = this.sm.getLeafId();
    const { entries } = this.pi.collectEntriesForBranchSummary(this.sm, oldLeafId, targetId);
    this.fauxSummarizer.reply(modelReply);
    const result = await this.pi.generateBranchSummary(entries, {
      model: this.fauxSummarizer.model,
      apiKey: "scripted",
      signal: new AbortController().signal,
      reserveTokens: 16384,
    });
    if (result.error || result.aborted) throw new Error(`branch summary failed: ${result.error ?? "aborted"}`);
    this.pause(this.rng.int(7000, 12000));
    const target = this.sm.getEntry(targetId);
    const newLeafId = target.type === "message" && target.message.role === "user" ? target.parentId : targetId;
    const details = { readFiles: result.readFiles || [], modifiedFiles: result.modifiedFiles || [] };
    const id = this.sm.branchWithSummary(newLeafId, result.summary, details, false);
    return { id, oldLeafId, newLeafId, abandoned: entries.map((e) => e.id) };
  }

  signature(thinking) {
    return this.rng.base64(120 + Math.floor(thinking.length / 8));
  }

  /**
   * Anthropic-style usage: the prompt is the system prompt plus the context pi
   * would send; what the previous request on this path sent is a cache read if
   * it is younger than the cache TTL; `input` is the uncached tail.
   */
  usageFor(message, requestedAt) {
    const estimate = (m) => this.pi.estimateTokens(m);
    const contextMessages = this.sm.buildSessionContext().messages;
    const promptTokens = SYSTEM_PROMPT_TOKENS + Math.ceil(contextMessages.reduce((n, m) => n + estimate(m), 0) * TOKENS_PER_ESTIMATE);
    const previous = this.sm
      .getBranch()
      .reverse()
      .find((e) => this.requests.has(e.id));
    const cached = previous ? this.requests.get(previous.id) : undefined;
    const cacheRead = cached && requestedAt - cached.requestedAt < CACHE_TTL_MS ? cached.promptTokens : 0;
    const input = this.rng.int(3, 12);
    const output = Math.ceil(estimate(message) * TOKENS_PER_ESTIMATE) + this.rng.int(8, 40);
    const usage = {
      input,
      output,
      cacheRead,
      cacheWrite: promptTokens - cacheRead - input,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    this.piAi.calculateCost(this.model, usage);
    return usage;
  }
}
