import { Logger } from '@nestjs/common';
import { Agent, fetch as undiciFetch, Response as UndiciResponse } from 'undici';
import { isRetryableStatus, OutboundFailure, OutboundHttpError } from './outbound-error';
import {
  credentialsOf,
  excerpt,
  redactHeaders,
  redactText,
  redactUrl,
  SecretNames,
  secretNames,
} from './redact';
import { retryAfterMs } from './retry-after';

export interface OutboundLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface OutboundHttpOptions {
  /** Names the provider in every log line and error: `billing`, `chat`, `idp` ... */
  provider: string;
  /** Per attempt, from sending the request to the end of the answer's body; 0: none (the caller's own). */
  timeoutMs: number;
  /** Further attempts of a repeatable call after a 429, a 5xx, a 408, a timeout or a lost connection. */
  retries: number;
  /** Wait before the first retry, doubled for each next one (a Retry-After replaces it). */
  backoffMs: number;
  /**
   * The longest wait between attempts. A Retry-After asking for more ends the retries at once,
   * and is surfaced: in the error (`retryAfterMs`, `retryAfterOverCap`), and to an SDK through
   * `asFetch` as `x-should-retry: false`.
   */
  maxRetryDelayMs: number;
  /** Whether a timeout or a lost connection is retried like a 429 or a 5xx. */
  retryUnanswered: boolean;
  /** Redirects: followed (fetch's way) or answered as they are (a 3xx is then an error). */
  redirect: 'follow' | 'manual';
  /** A connection pool of the client's own (closed by `close`); undici's global one otherwise. */
  agent?: Agent.Options;
  /** The URL's path is the receiver's secret (webhook URLs): logged as `/[redacted]`. */
  secretPath: boolean;
  /** The provider's own secret field names, beyond the usual ones (see redact.ts). */
  secretFields: readonly string[];
  sleep: (ms: number) => Promise<void>;
  logger: OutboundLogger;
}

export const OUTBOUND_DEFAULTS: Omit<OutboundHttpOptions, 'provider' | 'logger'> = {
  timeoutMs: 10_000,
  retries: 0,
  backoffMs: 250,
  maxRetryDelayMs: 2_000,
  retryUnanswered: true,
  redirect: 'follow',
  secretPath: false,
  secretFields: [],
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface OutboundRequest {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  /** Sent as JSON (with `content-type: application/json` unless `headers` say otherwise). */
  json?: unknown;
  /** Sent as it is (when `json` is not given). */
  body?: string;
  /**
   * May be sent again after a transient failure: idempotent, or carrying a uniqueness token the
   * provider deduplicates by. Anything else is sent once: a lost answer may hide a done write.
   */
  repeatable: boolean;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  /** Statuses answered rather than thrown, besides 2xx (a webhook records any status). */
  accept?: (status: number) => boolean;
  /** Reads at most this many bytes of the answer's body; the rest is dropped unread. */
  maxBodyBytes?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  /** The body as text (UTF-8; cut at `maxBodyBytes`). */
  text: string;
  /** The body as JSON, else its text; undefined when empty. */
  body: unknown;
  attempts: number;
  durationMs: number;
}

/** One request as the attempts see it. */
interface Call {
  method: string;
  url: URL;
  headers: Headers;
  repeatable: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The credentials the request carries, scrubbed from whatever is logged of its answer. */
  credentials: string[];
}

type Outcome<T> =
  | {
      answered: true;
      status: number;
      headers: Headers;
      /** Taken by the caller (2xx, `accept`), rather than a failure. */
      accepted: boolean;
      value: T;
      excerpt: string;
      discard: () => Promise<void>;
    }
  | { answered: false; failure: Exclude<OutboundFailure, 'status'>; error: unknown };

interface Finished<T> {
  outcome: Outcome<T>;
  attempts: number;
  durationMs: number;
  retryAfterMs?: number;
  retryAfterOverCap: boolean;
}

/** What an excerpt is made from: enough for a provider's error, not a whole page. */
const EXCERPT_SOURCE_BYTES = 8_192;

/**
 * The one outbound HTTP base of the provider clients, on undici's fetch: a timeout per attempt,
 * bounded retries of the calls declared repeatable (backoff doubling, or the provider's
 * Retry-After up to a cap), one error (`OutboundHttpError`), and one log line per call (provider,
 * method, redacted URL, status or failure, duration, attempts; for a failure the redacted start
 * of the provider's answer and the request's headers, secrets redacted). `send` is for clients
 * that build their own requests; `asFetch` gives SDKs (Anthropic, google-auth-library) a `fetch`.
 */
export class OutboundHttp {
  readonly options: OutboundHttpOptions;
  private readonly agent?: Agent;
  private readonly isSecret: SecretNames;

  constructor(options: Partial<OutboundHttpOptions> & { provider: string }) {
    this.options = {
      ...OUTBOUND_DEFAULTS,
      logger: new Logger('OutboundHttp'),
      ...options,
    };
    this.agent = options.agent ? new Agent(options.agent) : undefined;
    this.isSecret = secretNames(this.options.secretFields);
  }

  /** Closes the client's own connection pool, if it has one. */
  async close(): Promise<void> {
    await this.agent?.close();
  }

  /**
   * One call: its answer when 2xx (or `accept`ed), else an OutboundHttpError (after the retries a
   * repeatable call may have).
   */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    let body = request.body;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    }
    const call = this.callOf(request.method, url, headers, request.repeatable, request.signal);
    if (request.timeoutMs !== undefined) call.timeoutMs = request.timeoutMs;
    const accept = request.accept ?? (() => false);
    const finished = await this.run(call, async (signal): Promise<Outcome<string>> => {
      const response = await undiciFetch(url, {
        method: call.method,
        headers: Object.fromEntries(headers),
        body,
        signal,
        redirect: this.options.redirect,
        dispatcher: this.agent,
      });
      const text = (await readBody(response, request.maxBodyBytes)).toString('utf8');
      const accepted = response.ok || accept(response.status);
      return {
        answered: true,
        status: response.status,
        headers: response.headers,
        accepted,
        value: text,
        excerpt: accepted ? '' : this.excerptOf(text, call),
        discard: async () => undefined,
      };
    });
    this.logCall(call, finished);
    const { outcome, attempts, durationMs } = finished;
    if (outcome.answered && outcome.accepted) {
      const { status, headers: answered, value: text } = outcome;
      return { status, headers: answered, text, body: parseBody(text), attempts, durationMs };
    }
    throw this.errorOf(call, finished);
  }

  /**
   * A `fetch` for an SDK that builds its own requests: each call gets this client's timeout (none
   * when 0: the SDK's own), its retries when `repeatable(method)` and the body can be sent again,
   * and its log line. It answers the last response whatever its status (the SDK maps statuses),
   * marked `x-should-retry: false` when its Retry-After is over the cap (the SDK then stops instead
   * of waiting), and throws fetch's own error when no answer came. String or URL inputs only.
   */
  asFetch(repeatable: (method: string) => boolean = () => false): typeof fetch {
    const adapted = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
      if (typeof input !== 'string' && !(input instanceof URL)) {
        throw new TypeError('OutboundHttp.asFetch takes a URL, not a Request');
      }
      const url = new URL(input);
      const method = (init.method ?? 'GET').toUpperCase();
      const headers = new Headers(init.headers);
      const again = isResendable(init.body) && repeatable(method);
      const call = this.callOf(method, url, headers, again, init.signal ?? undefined);
      const finished = await this.run(call, async (signal): Promise<Outcome<UndiciResponse>> => {
        const response = await undiciFetch(url, {
          method,
          headers: Object.fromEntries(headers),
          body: init.body as never,
          signal,
          redirect: init.redirect ?? this.options.redirect,
          dispatcher: this.agent,
          ...(init.duplex ? { duplex: init.duplex } : {}),
        } as never);
        return {
          answered: true,
          status: response.status,
          headers: response.headers,
          accepted: response.ok,
          value: response,
          excerpt: response.ok ? '' : await this.excerptOfCopy(response, call),
          discard: async () => void (await response.body?.cancel().catch(() => undefined)),
        };
      });
      this.logCall(call, finished);
      const { outcome } = finished;
      if (!outcome.answered) throw outcome.error;
      const response = outcome.value;
      if (!finished.retryAfterOverCap || response.ok) return response as unknown as Response;
      return new UndiciResponse(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers: { ...Object.fromEntries(response.headers), 'x-should-retry': 'false' },
      }) as unknown as Response;
    };
    return adapted as unknown as typeof fetch;
  }

  private callOf(
    method: string,
    url: URL,
    headers: Headers,
    repeatable: boolean,
    signal?: AbortSignal,
  ): Call {
    const credentials = credentialsOf(url, headers, this.isSecret);
    return {
      method,
      url,
      headers,
      repeatable,
      timeoutMs: this.options.timeoutMs,
      signal,
      credentials,
    };
  }

  /** The attempts of one call: again after a transient failure while the call and the cap allow. */
  private async run<T>(
    call: Call,
    once: (signal: AbortSignal | undefined) => Promise<Outcome<T>>,
  ): Promise<Finished<T>> {
    const { retries, retryUnanswered, maxRetryDelayMs, sleep } = this.options;
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(call, once);
      const asked = outcome.answered ? retryAfterMs(outcome.headers) : undefined;
      const finished: Finished<T> = {
        outcome,
        attempts: attempt,
        durationMs: Math.round(performance.now() - started),
        retryAfterMs: asked,
        retryAfterOverCap: asked !== undefined && asked > maxRetryDelayMs,
      };
      const again =
        isRetryable(outcome) &&
        call.repeatable &&
        attempt <= retries &&
        (outcome.answered || retryUnanswered) &&
        !finished.retryAfterOverCap;
      if (!again) return finished;
      if (outcome.answered) await outcome.discard();
      await sleep(asked ?? this.backoff(attempt));
    }
  }

  private backoff(attempt: number): number {
    const { backoffMs, maxRetryDelayMs } = this.options;
    return Math.min(backoffMs * 2 ** (attempt - 1), maxRetryDelayMs);
  }

  private async attempt<T>(
    call: Call,
    once: (signal: AbortSignal | undefined) => Promise<Outcome<T>>,
  ): Promise<Outcome<T>> {
    const timeout = call.timeoutMs > 0 ? AbortSignal.timeout(call.timeoutMs) : undefined;
    const signals = [call.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    try {
      return await once(signal);
    } catch (error) {
      const failure = timeout?.aborted ? 'timeout' : call.signal?.aborted ? 'aborted' : 'network';
      return { answered: false, failure, error };
    }
  }

  private excerptOf(text: string, call: Call): string {
    return excerpt(
      redactText(text.slice(0, EXCERPT_SOURCE_BYTES), this.isSecret, call.credentials),
    );
  }

  /** The excerpt of an answer the SDK will read itself: from a copy of its body. */
  private async excerptOfCopy(response: UndiciResponse, call: Call): Promise<string> {
    try {
      const start = await readBody(response.clone(), EXCERPT_SOURCE_BYTES);
      return this.excerptOf(start.toString('utf8'), call);
    } catch {
      return '';
    }
  }

  private redactedUrl(url: URL): string {
    return redactUrl(url, this.isSecret, this.options.secretPath);
  }

  /** What became of the call, as its log line and its error say it. */
  private describe(call: Call, finished: Finished<unknown>): string {
    const { outcome, attempts } = finished;
    let what: string;
    if (outcome.answered) {
      what = `answered ${outcome.status}${outcome.excerpt ? ` (${outcome.excerpt})` : ''}`;
    } else if (outcome.failure === 'timeout') {
      what = `no answer in ${call.timeoutMs} ms`;
    } else if (outcome.failure === 'aborted') {
      what = 'aborted by the caller';
    } else {
      // fetch names a URL it refuses (one with credentials): shown as logs may show it.
      const said = networkError(outcome.error).split(call.url.href).join('\0');
      what = redactText(said, this.isSecret, call.credentials)
        .split('\0')
        .join(this.redactedUrl(call.url));
    }
    if (attempts > 1) what += ` (${attempts} attempts)`;
    if (finished.retryAfterOverCap) {
      what += `; asked to wait ${finished.retryAfterMs} ms, over the ${this.options.maxRetryDelayMs} ms cap`;
    }
    return `${this.options.provider} ${call.method} ${this.redactedUrl(call.url)}: ${what}`;
  }

  /** One line per call: a failure also names the request's headers, secrets redacted. */
  private logCall(call: Call, finished: Finished<unknown>): void {
    const { outcome, durationMs } = finished;
    const line = `${this.describe(call, finished)} in ${durationMs} ms`;
    if (outcome.answered && outcome.accepted) return this.options.logger.log(line);
    const sent = redactHeaders(call.headers, this.isSecret);
    const request = sent ? ` [request headers: ${sent}]` : '';
    const serious =
      !outcome.answered || isRetryableStatus(outcome.status) || [401, 403].includes(outcome.status);
    if (serious) this.options.logger.warn(line + request);
    else this.options.logger.log(line + request);
  }

  private errorOf(call: Call, finished: Finished<string>): OutboundHttpError {
    const { outcome } = finished;
    return new OutboundHttpError(
      this.describe(call, finished),
      {
        provider: this.options.provider,
        method: call.method,
        url: this.redactedUrl(call.url),
        failure: outcome.answered ? 'status' : outcome.failure,
        status: outcome.answered ? outcome.status : undefined,
        headers: outcome.answered ? outcome.headers : undefined,
        body: outcome.answered ? parseBody(outcome.value) : undefined,
        excerpt: outcome.answered ? outcome.excerpt : '',
        retryable: isRetryable(outcome),
        retryAfterMs: finished.retryAfterMs,
        retryAfterOverCap: finished.retryAfterOverCap,
        attempts: finished.attempts,
      },
      { cause: outcome.answered ? undefined : outcome.error },
    );
  }
}

const isRetryable = (outcome: Outcome<unknown>) =>
  outcome.answered
    ? !outcome.accepted && isRetryableStatus(outcome.status)
    : outcome.failure !== 'aborted';

/** A body fetch can send a second time (a stream is spent by the first). */
const isResendable = (body: unknown) =>
  body === undefined ||
  body === null ||
  typeof body === 'string' ||
  body instanceof URLSearchParams ||
  body instanceof ArrayBuffer ||
  ArrayBuffer.isView(body) ||
  body instanceof Blob;

/** The whole body, or its first `limit` bytes (the rest dropped unread). */
async function readBody(response: UndiciResponse, limit?: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  if (limit === undefined) return Buffer.from(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

/** JSON, or the text itself (a proxy in front of a provider may answer HTML); undefined when empty. */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * fetch's `TypeError: fetch failed` says little: its cause names the refusal or the lookup. (The
 * cause may come from another realm than `Error`, as under jest: read, not `instanceof`.)
 */
export function networkError(error: unknown): string {
  const message = (value: unknown) =>
    value && typeof value === 'object' && typeof (value as Error).message === 'string'
      ? (value as Error).message
      : undefined;
  const own = message(error) ?? String(error);
  const cause = message((error as { cause?: unknown } | undefined)?.cause);
  return cause ? `${own}: ${cause}` : own;
}
