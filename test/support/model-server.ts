// A loopback model server for tests: node:http on 127.0.0.1 (random port)
// speaking OpenAI chat-completions streaming (POST /v1/chat/completions) and
// Anthropic messages streaming (POST /v1/messages), so real pi-ai talks real
// HTTP to it. Each request is recorded (auth values removed; only whether
// auth was present and equal to the expected key is kept) and answered by the
// scenario a responder function picks for it.

import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { anthropicStream, errorBody, openaiStream, promptTextOf } from "./model-server-protocols.js";
import type { Protocol, StreamPlan } from "./model-server-protocols.js";

export type ModelScenario =
  | {
      kind: "stream";
      text: string;
      /** Number of text deltas (default 4). */
      chunks?: number;
      /** Pause before each delta (default 0: written back to back). */
      intervalMs?: number;
      /** "length" = OpenAI finish_reason "length" / Anthropic stop_reason "max_tokens". */
      stop?: "stop" | "length";
      thinking?: string;
      usage?: { input: number; output: number };
      /** OpenAI only: the answer also calls this tool (finish_reason "tool_calls"). */
      toolCall?: { name: string; arguments: Record<string, unknown> };
    }
  | { kind: "http-error"; status: number; message?: string; retryAfterSeconds?: number }
  /** Accept the request and never answer. */
  | { kind: "hang" }
  /** Stream `afterChunks` deltas of the text, then destroy the socket. */
  | { kind: "cut"; text: string; chunks?: number; afterChunks: number };

export const scenarios = {
  success: (text: string, extra: { chunks?: number; thinking?: string } = {}): ModelScenario => ({ kind: "stream", text, ...extra }),
  empty: (): ModelScenario => ({ kind: "stream", text: "" }),
  length: (text: string): ModelScenario => ({ kind: "stream", text, stop: "length" }),
  toolCall: (text: string, name: string, args: Record<string, unknown> = {}): ModelScenario => ({ kind: "stream", text, toolCall: { name, arguments: args } }),
  slow: (text: string, chunks: number, intervalMs: number): ModelScenario => ({ kind: "stream", text, chunks, intervalMs }),
  httpError: (status: number, message = `loopback error ${status}`): ModelScenario => ({ kind: "http-error", status, message, retryAfterSeconds: 0 }),
  hang: (): ModelScenario => ({ kind: "hang" }),
  cut: (text: string, afterChunks: number, chunks = 6): ModelScenario => ({ kind: "cut", text, chunks, afterChunks }),
};

export interface RecordedAuth {
  present: boolean;
  header?: "authorization" | "x-api-key";
  matchesExpectedKey: boolean;
}

export interface RecordedRequest {
  index: number;
  protocol: Protocol | "unknown";
  method: string;
  path: string;
  /** Request headers with every credential-carrying header removed. */
  headers: Record<string, string>;
  auth: RecordedAuth;
  body: unknown;
  promptText: string;
  scenario: ModelScenario | undefined;
  /** Text deltas written so far. */
  chunksWritten: number;
  /** The server wrote its whole answer. */
  finished: boolean;
  /** The client went away before the answer was complete (abort, timeout). */
  clientClosedEarly: boolean;
  /** The server destroyed the socket on purpose (scenario "cut"). */
  serverCut: boolean;
  /** Resolves when the exchange is over, whoever ended it. */
  closed: Promise<void>;
  waitForChunks(count: number): Promise<void>;
}

export type Responder = (request: RecordedRequest) => ModelScenario;

export interface ModelServer {
  port: number;
  /** http://127.0.0.1:<port>/v1, for api "openai-completions". */
  openaiBaseUrl: string;
  /** http://127.0.0.1:<port>, for api "anthropic-messages". */
  anthropicBaseUrl: string;
  requests: RecordedRequest[];
  respond: Responder;
  /** The index-th request (0-based), once it has arrived. */
  waitForRequest(index: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

const CREDENTIAL_HEADERS = new Set(["authorization", "x-api-key", "proxy-authorization", "api-key", "cf-aig-authorization"]);

function recordAuth(req: IncomingMessage, expectedKey: string | undefined): RecordedAuth {
  const bearer = req.headers.authorization;
  const xApiKey = req.headers["x-api-key"];
  if (typeof bearer === "string") {
    const token = bearer.replace(/^Bearer\s+/i, "");
    return { present: true, header: "authorization", matchesExpectedKey: expectedKey !== undefined && token === expectedKey };
  }
  if (typeof xApiKey === "string") {
    return { present: true, header: "x-api-key", matchesExpectedKey: expectedKey !== undefined && xApiKey === expectedKey };
  }
  return { present: false, matchesExpectedKey: false };
}

function safeHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (CREDENTIAL_HEADERS.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface ModelServerOptions {
  expectedKey?: string;
  respond?: Responder;
}

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const sockets = new Set<Socket>();
  const requests: RecordedRequest[] = [];
  const arrivalWaiters: { index: number; resolve: (r: RecordedRequest) => void }[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse, state: { record?: RecordedRequest }): Promise<void> => {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw === "" ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const path = (req.url ?? "").split("?")[0] ?? "";
    const protocol: Protocol | "unknown" =
      req.method === "POST" && path.endsWith("/chat/completions") ? "openai" : req.method === "POST" && path.endsWith("/v1/messages") ? "anthropic" : "unknown";

    let closeResolve!: () => void;
    const chunkWaiters: { count: number; resolve: () => void }[] = [];
    const record: RecordedRequest = {
      index: requests.length,
      protocol,
      method: req.method ?? "",
      path,
      headers: safeHeaders(req),
      auth: recordAuth(req, options.expectedKey),
      body,
      promptText: promptTextOf(body),
      scenario: undefined,
      chunksWritten: 0,
      finished: false,
      clientClosedEarly: false,
      serverCut: false,
      closed: new Promise<void>((resolve) => (closeResolve = resolve)),
      waitForChunks: (count) =>
        record.chunksWritten >= count || record.finished || record.clientClosedEarly
          ? Promise.resolve()
          : new Promise<void>((resolve) => chunkWaiters.push({ count, resolve })),
    };
    state.record = record;
    const wakeChunkWaiters = (all = false): void => {
      for (const w of [...chunkWaiters]) {
        if (all || record.chunksWritten >= w.count) {
          chunkWaiters.splice(chunkWaiters.indexOf(w), 1);
          w.resolve();
        }
      }
    };
    res.on("close", () => {
      if (!res.writableFinished && !record.finished && !record.serverCut) record.clientClosedEarly = true;
      wakeChunkWaiters(true);
      closeResolve();
    });
    requests.push(record);
    for (const w of [...arrivalWaiters]) {
      if (w.index === record.index) {
        arrivalWaiters.splice(arrivalWaiters.indexOf(w), 1);
        w.resolve(record);
      }
    }

    if (protocol === "unknown") {
      record.finished = true;
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${path}` } }));
      return;
    }

    const scenario = server.respond(record);
    record.scenario = scenario;
    if (scenario.kind === "hang") return;
    if (scenario.kind === "http-error") {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (scenario.retryAfterSeconds !== undefined) headers["retry-after"] = String(scenario.retryAfterSeconds);
      record.finished = true;
      res.writeHead(scenario.status, headers).end(JSON.stringify(errorBody(protocol, scenario.status, scenario.message ?? `error ${scenario.status}`)));
      return;
    }

    const model = typeof body === "object" && body !== null && typeof (body as { model?: unknown }).model === "string" ? (body as { model: string }).model : "loopback";
    const content = {
      text: scenario.text,
      chunks: scenario.chunks ?? (scenario.kind === "cut" ? 6 : 4),
      stop: scenario.kind === "stream" ? (scenario.stop ?? "stop") : ("stop" as const),
      thinking: scenario.kind === "stream" ? scenario.thinking : undefined,
      toolCall: scenario.kind === "stream" ? scenario.toolCall : undefined,
      usage: (scenario.kind === "stream" ? scenario.usage : undefined) ?? { input: 100, output: 20 },
      model,
    };
    const plan: StreamPlan = protocol === "openai" ? openaiStream(content) : anthropicStream(content);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const gone = (): boolean => res.destroyed || res.writableEnded;
    for (const frame of plan.preamble) res.write(frame);
    for (const frame of plan.deltas) {
      if (scenario.kind === "stream" && scenario.intervalMs) await sleep(scenario.intervalMs);
      if (gone()) return;
      if (scenario.kind === "cut" && record.chunksWritten >= scenario.afterChunks) {
        record.serverCut = true;
        res.socket?.destroy();
        return;
      }
      res.write(frame);
      record.chunksWritten++;
      wakeChunkWaiters();
    }
    if (scenario.kind === "cut") {
      record.serverCut = true;
      res.socket?.destroy();
      return;
    }
    if (gone()) return;
    for (const frame of plan.ending) res.write(frame);
    record.finished = true;
    res.end();
  };

  const http: Server = createServer((req, res) => {
    const state: { record?: RecordedRequest } = {};
    handle(req, res, state).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    });
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  if (typeof address !== "object" || address === null) throw new Error("model server: no address");
  const port = address.port;

  const server: ModelServer = {
    port,
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    requests,
    respond: options.respond ?? (() => scenarios.success("Loopback summary.")),
    waitForRequest: (index) => {
      const existing = requests[index];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => arrivalWaiters.push({ index, resolve }));
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return server;
}
