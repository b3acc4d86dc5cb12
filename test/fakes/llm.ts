import type Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { listenOnFreePort } from './listen';

/** One request the fake received, whatever it answered. */
export interface FakeLlmRequest {
  method: string;
  /** Without the query. */
  path: string;
  /** Lower-case names, repeated headers joined with ','. */
  headers: Record<string, string>;
  /** The parsed JSON body (as the client sent it: not checked against the type). */
  body: Anthropic.MessageCreateParamsNonStreaming;
}

/** A tool call of a scripted answer; `id` defaults to a fresh `toolu_...`. */
export interface FakeToolCall {
  name: string;
  input: unknown;
  id?: string;
}

/**
 * How the fake answers one request: a message (its id, model and usage filled in from the
 * request), an error status with the API's error body, or nothing at all (`hang`: the client's
 * timeout decides).
 */
export type FakeLlmAnswer =
  | {
      kind: 'message';
      content: Anthropic.ContentBlock[];
      stopReason: Anthropic.StopReason;
      stopSequence?: string | null;
    }
  | {
      kind: 'error';
      status: number;
      type: string;
      message: string;
      headers: Record<string, string>;
    }
  | { kind: 'hang' };

export type FakeLlmResponder = (request: FakeLlmRequest) => FakeLlmAnswer | Promise<FakeLlmAnswer>;

export interface FakeErrorOptions {
  /** `retry-after`, in seconds. */
  retryAfter?: number;
  /** `retry-after-ms`, which the SDK reads before `retry-after`. */
  retryAfterMs?: number;
  /** The error body's `error.type`; default the API's type for the status. */
  type?: string;
  message?: string;
  /** Further response headers, e.g. `x-should-retry`. */
  headers?: Record<string, string>;
}

/** The `error.type` the Messages API answers with each status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** `<prefix>01` and 22 base62 characters, the shape of the API's ids. */
const apiId = (prefix: string) => {
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return `${prefix}01${[...randomBytes(22)].map((b) => chars[b % chars.length]).join('')}`;
};

const textBlock = (text: string): Anthropic.TextBlock => ({ type: 'text', text, citations: null });

// Answers, for `respondWith` and the script helpers.

/** A text answer (`end_turn` unless told otherwise). */
export function textAnswer(
  text: string,
  stopReason: Anthropic.StopReason = 'end_turn',
): FakeLlmAnswer {
  return { kind: 'message', content: [textBlock(text)], stopReason };
}

/** An answer calling tools (`stop_reason: tool_use`), after an optional text block. */
export function toolUseAnswer(calls: FakeToolCall[], text?: string): FakeLlmAnswer {
  const uses = calls.map((call): Anthropic.ToolUseBlock => ({
    type: 'tool_use',
    id: call.id ?? apiId('toolu_'),
    name: call.name,
    input: call.input,
    caller: { type: 'direct' },
  }));
  return {
    kind: 'message',
    content: [...(text === undefined ? [] : [textBlock(text)]), ...uses],
    stopReason: 'tool_use',
  };
}

/** An error status with the API's body `{type: 'error', error: {type, message}}`. */
export function errorAnswer(status: number, options: FakeErrorOptions = {}): FakeLlmAnswer {
  const headers: Record<string, string> = { ...options.headers };
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  return {
    kind: 'error',
    status,
    type: options.type ?? ERROR_TYPES[status] ?? 'api_error',
    message: options.message ?? `fake error ${status}`,
    headers,
  };
}

interface ScriptEntry {
  respond: FakeLlmResponder;
  times: number;
}

/**
 * The Anthropic Messages API (`POST /v1/messages`, non-streaming) on 127.0.0.1 at a free port.
 * A request needs the key as `Authorization: Bearer <apiKey>` (how @anthropic-ai/sdk 1.x, API
 * version 2026-10-21, sends it) or `x-api-key: <apiKey>` (earlier versions, most gateways); 401
 * `authentication_error` otherwise. It needs an
 * `anthropic-version` header and a body with `model`, `max_tokens` and `messages` (400
 * `invalid_request_error` otherwise). Every request is recorded in `requests`, refused ones
 * included. Answers come from a script, in order: `reply`, `toolUse`, `status`, `overloaded`,
 * `hang` and `respondWith` each add an entry (answering `times` requests, default 1); with the
 * script spent, a request is answered `defaultText`.
 */
export class FakeLlm {
  readonly apiKey = 'fake-llm-api-key';
  readonly requests: FakeLlmRequest[] = [];
  /** The text of the answer to a request when the script is spent. */
  defaultText = 'Hello from the fake language model.';
  /** The base URL, without `/v1` (LLM_BASE_URL). */
  url = '';

  private server?: Server;
  private script: ScriptEntry[] = [];
  private readonly hanging = new Set<ServerResponse>();

  static async start(): Promise<FakeLlm> {
    const fake = new FakeLlm();
    fake.server = createServer((req, res) => void fake.handle(req, res));
    const port = await listenOnFreePort(fake.server);
    fake.url = `http://127.0.0.1:${port}`;
    return fake;
  }

  /** The app's LLM_* variables pointing at this fake. */
  env(): Record<string, string> {
    return { LLM_API_KEY: this.apiKey, LLM_BASE_URL: this.url };
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server!.close((err) => (err ? reject(err) : resolve())),
    );
  }

  /** Forgets the recorded requests and the rest of the script. */
  reset(): void {
    this.requests.length = 0;
    this.script = [];
  }

  /** The entries of the script not yet spent. */
  get pending(): number {
    return this.script.reduce((sum, entry) => sum + entry.times, 0);
  }

  /** The body of the last request. */
  lastBody(): Anthropic.MessageCreateParamsNonStreaming {
    const last = this.requests.at(-1);
    if (!last) throw new Error('FakeLlm received no request');
    return last.body;
  }

  // The script

  /** The next `times` requests answer a text message. */
  reply(text: string, options: { stopReason?: Anthropic.StopReason; times?: number } = {}): this {
    return this.respondWith(() => textAnswer(text, options.stopReason), options.times);
  }

  /** The next request answers these tool calls (fresh ids unless given), after `text` if given. */
  toolUse(calls: FakeToolCall[], text?: string): this {
    return this.respondWith(() => toolUseAnswer(calls, text));
  }

  /** The next `times` requests answer `status` with the API's error body. */
  status(status: number, options: FakeErrorOptions & { times?: number } = {}): this {
    const { times, ...error } = options;
    return this.respondWith(() => errorAnswer(status, error), times);
  }

  /** The next `times` requests answer 529 `overloaded_error`. */
  overloaded(options: FakeErrorOptions & { times?: number } = {}): this {
    return this.status(529, { message: 'Overloaded', ...options });
  }

  /** The next `times` requests get no answer (until the client gives up or the fake closes). */
  hang(times = 1): this {
    return this.respondWith(() => ({ kind: 'hang' }), times);
  }

  /** The next `times` requests (Infinity: all) are answered by `respond`. */
  respondWith(respond: FakeLlmResponder, times = 1): this {
    this.script.push({ respond, times });
    return this;
  }

  // Serving

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const request: FakeLlmRequest = {
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0],
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.join(',') : (v ?? ''),
        ]),
      ),
      body: body as Anthropic.MessageCreateParamsNonStreaming,
    };
    this.requests.push(request);
    const answer = refusal(request, raw, this.apiKey) ?? (await this.next(request));
    this.send(res, request, answer);
  }

  private next(request: FakeLlmRequest): FakeLlmAnswer | Promise<FakeLlmAnswer> {
    const entry = this.script[0];
    if (!entry) return textAnswer(this.defaultText);
    entry.times -= 1;
    if (entry.times <= 0) this.script.shift();
    return entry.respond(request);
  }

  private send(res: ServerResponse, request: FakeLlmRequest, answer: FakeLlmAnswer): void {
    if (answer.kind === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    const headers = { 'content-type': 'application/json', 'request-id': apiId('req_') };
    if (answer.kind === 'error') {
      const body = { type: 'error', error: { type: answer.type, message: answer.message } };
      res.writeHead(answer.status, { ...headers, ...answer.headers }).end(JSON.stringify(body));
      return;
    }
    const message: Anthropic.Message = {
      id: apiId('msg_'),
      type: 'message',
      role: 'assistant',
      model: request.body.model,
      content: answer.content,
      stop_reason: answer.stopReason,
      stop_sequence: answer.stopSequence ?? null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: tokens(request.body.system) + tokens(request.body.messages),
        output_tokens: tokens(answer.content),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: null,
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
        speed: 'standard',
      },
    };
    res.writeHead(200, headers).end(JSON.stringify(message));
  }
}

/** A rough token count (4 characters each), enough for `usage` to vary with the text. */
const tokens = (value: unknown) =>
  value === undefined ? 0 : Math.ceil(JSON.stringify(value).length / 4);

/** The refusal of the API for a request it would not take, if any. */
function refusal(request: FakeLlmRequest, raw: string, apiKey: string): FakeLlmAnswer | undefined {
  if (request.method !== 'POST' || request.path !== '/v1/messages') {
    return errorAnswer(404, { message: `${request.method} ${request.path}: not found` });
  }
  const bearer = /^Bearer (.+)$/.exec(request.headers['authorization'] ?? '')?.[1];
  if (request.headers['x-api-key'] !== apiKey && bearer !== apiKey) {
    return errorAnswer(401, { message: 'invalid x-api-key' });
  }
  if (!request.headers['anthropic-version']) {
    return errorAnswer(400, { message: 'anthropic-version: header is required' });
  }
  const body = request.body as Partial<Anthropic.MessageCreateParamsNonStreaming> | undefined;
  if (!body || typeof body !== 'object') {
    return errorAnswer(400, { message: `the body is not a JSON object: ${raw.slice(0, 100)}` });
  }
  if (typeof body.model !== 'string' || !body.model) {
    return errorAnswer(400, { message: 'model: Field required' });
  }
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    return errorAnswer(400, { message: 'max_tokens: Field required (an integer >= 1)' });
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return errorAnswer(400, { message: 'messages: at least one message is required' });
  }
  if (body.stream) {
    return errorAnswer(400, { message: 'stream: the fake answers only non-streaming requests' });
  }
  return undefined;
}
