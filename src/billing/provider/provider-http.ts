import { Logger } from '@nestjs/common';
import { Pool } from 'undici';
import { BillingNotFoundError, BillingProviderError, BillingProviderUnavailable } from './errors';

export interface ProviderHttpOptions {
  /** Per attempt, from sending the request to the end of the answer's body. */
  timeoutMs: number;
  /** Further attempts of a repeatable call after a 429, a 5xx, a timeout or a lost connection. */
  retries: number;
  /** Wait before the first retry, doubled for each next one (a Retry-After replaces it). */
  backoffMs: number;
  /** The longest wait between attempts; a Retry-After asking for more ends the retries. */
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_HTTP_OPTIONS: ProviderHttpOptions = {
  timeoutMs: 10_000,
  retries: 2,
  backoffMs: 250,
  maxDelayMs: 2_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface ProviderCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** From the site root, e.g. `/subscriptions/12/allocations.json`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * May be sent again after a failure: reads, and writes the provider deduplicates by the
   * uniqueness token they carry. Any other write is sent once (a lost answer may hide a charge).
   */
  repeatable: boolean;
  /** Names the record in a 404's message; with `missingAsNull`, a 404 is answered null. */
  record: string;
  missingAsNull?: boolean;
  /** The uniqueness token the body carries: a 409, or a 422 about it, means "already done". */
  uniquenessToken?: string;
}

/** What a call answered: the parsed body, or the provider telling that a token was used. */
export type CallResult =
  { kind: 'body'; body: unknown } | { kind: 'missing' } | { kind: 'duplicate' };

interface Answer {
  status: number;
  body: unknown;
  retryAfterMs?: number;
}

/**
 * HTTP to the provider's site: Basic auth (`<api key>:x`), JSON both ways, a timeout per attempt,
 * bounded retries of repeatable calls, and the provider's statuses mapped to our errors.
 */
export class ProviderHttp {
  private readonly logger = new Logger('BillingProvider');
  private readonly pool: Pool;
  private readonly base: URL;
  private readonly authorization: string;

  constructor(
    siteUrl: string,
    apiKey: string,
    private readonly options: ProviderHttpOptions,
  ) {
    this.base = new URL(siteUrl);
    this.pool = new Pool(this.base.origin, { connections: 8 });
    this.authorization = `Basic ${Buffer.from(`${apiKey}:x`).toString('base64')}`;
  }

  async call(call: ProviderCall): Promise<CallResult> {
    const attempts = call.repeatable ? 1 + this.options.retries : 1;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.attempt(call);
      const transient = !('status' in answer) || answer.status === 429 || answer.status >= 500;
      if (!transient) return this.result(call, answer);
      const failure = describeFailure(call, answer);
      const delay = this.delayBefore(attempt, 'status' in answer ? answer.retryAfterMs : undefined);
      if (attempt >= attempts || delay === undefined) {
        throw new BillingProviderUnavailable(
          `${failure}${attempts > 1 ? ` (${attempt} attempts)` : ''}`,
          'status' in answer ? answer.status : undefined,
          { cause: 'error' in answer ? answer.error : undefined },
        );
      }
      this.logger.warn(`${failure}; retrying in ${delay} ms`);
      await this.options.sleep(delay);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** Backoff doubling from `backoffMs`, or the provider's Retry-After; undefined past the cap. */
  private delayBefore(attempt: number, retryAfterMs: number | undefined): number | undefined {
    const { backoffMs, maxDelayMs } = this.options;
    if (retryAfterMs !== undefined) return retryAfterMs <= maxDelayMs ? retryAfterMs : undefined;
    return Math.min(backoffMs * 2 ** (attempt - 1), maxDelayMs);
  }

  private async attempt(call: ProviderCall): Promise<Answer | { error: unknown }> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await this.pool.request({
        method: call.method,
        path: this.pathOf(call),
        headers: {
          authorization: this.authorization,
          accept: 'application/json',
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        body: parseBody(text),
        retryAfterMs: retryAfterMs(response.headers['retry-after'], response.headers.date),
      };
    } catch (error) {
      return {
        error: signal.aborted ? new Error(`no answer in ${this.options.timeoutMs} ms`) : error,
      };
    }
  }

  private pathOf(call: ProviderCall): string {
    const prefix = this.base.pathname.replace(/\/$/, '');
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) query.set(name, String(value));
    }
    const search = query.size ? `?${query}` : '';
    return `${prefix}${call.path}${search}`;
  }

  private result(call: ProviderCall, answer: Answer): CallResult {
    const { status, body } = answer;
    if (status >= 200 && status < 300) return { kind: 'body', body };
    if (status === 404) {
      if (call.missingAsNull) return { kind: 'missing' };
      throw new BillingNotFoundError(call.record);
    }
    const errors = errorMessages(body);
    if (call.uniquenessToken && (status === 409 || (status === 422 && mentionsToken(errors)))) {
      return { kind: 'duplicate' };
    }
    if (status === 422 || status === 409) throw new BillingProviderError(errors, status);
    throw new BillingProviderUnavailable(
      `${call.method} ${call.path}: the billing provider answered ${status}${errors.length ? ` (${errors.join('; ')})` : ''}`,
      status,
    );
  }
}

function describeFailure(call: ProviderCall, answer: Answer | { error: unknown }): string {
  const what = `${call.method} ${call.path}`;
  if ('status' in answer) return `${what}: the billing provider answered ${answer.status}`;
  const error = answer.error instanceof Error ? answer.error.message : String(answer.error);
  return `${what}: ${error}`;
}

/** JSON, or the text itself (the provider answers some errors in plain text or HTML). */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Seconds or an HTTP date, counted from the answer's own `Date` (RFC 9110: no clock of ours
 * enters); undefined when absent or unreadable.
 */
function retryAfterMs(
  header: string | string[] | undefined,
  date: string | string[] | undefined,
): number | undefined {
  const [value, sent] = [header, date].map((h) => (Array.isArray(h) ? h[0] : h));
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const [at, from] = [Date.parse(value), Date.parse(sent ?? '')];
  return Number.isNaN(at) || Number.isNaN(from) ? undefined : Math.max(0, at - from);
}

/**
 * The provider's messages: `{errors: [..]}`, `{errors: {field: [..]}}`, `{errors: ".."}` or
 * `{error: ".."}`.
 */
function errorMessages(body: unknown): string[] {
  if (typeof body === 'string') return body.trim() ? [body.trim().slice(0, 500)] : [];
  if (!body || typeof body !== 'object') return [];
  const { errors, error } = body as { errors?: unknown; error?: unknown };
  const found = errors ?? error;
  if (typeof found === 'string') return [found];
  if (Array.isArray(found)) return found.map(String);
  if (found && typeof found === 'object') {
    return Object.entries(found).flatMap(([field, messages]) =>
      (Array.isArray(messages) ? messages : [messages]).map((m) => `${field}: ${String(m)}`),
    );
  }
  return [];
}

const mentionsToken = (errors: string[]) => errors.some((e) => /uniqueness[ _]token/i.test(e));
