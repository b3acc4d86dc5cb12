import { OutboundHttp, OutboundHttpError } from '../../common';
import { BillingNotFoundError, BillingProviderError, BillingProviderUnavailable } from './errors';

export interface ProviderHttpOptions {
  /** Per attempt, from sending the request to the end of the answer's body. */
  timeoutMs: number;
  /** Further attempts of a repeatable call after a 429, a 5xx, a 408, a timeout or a lost connection. */
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

/**
 * HTTP to the provider's site on the outbound base: Basic auth (`<api key>:x`), JSON both ways, a
 * timeout per attempt, bounded retries of repeatable calls, redirects not followed, and the
 * provider's statuses mapped to our errors.
 */
export class ProviderHttp {
  private readonly http: OutboundHttp;
  private readonly base: URL;
  private readonly authorization: string;

  constructor(
    siteUrl: string,
    apiKey: string,
    private readonly options: ProviderHttpOptions,
  ) {
    this.base = new URL(siteUrl);
    this.authorization = `Basic ${Buffer.from(`${apiKey}:x`).toString('base64')}`;
    this.http = new OutboundHttp({
      provider: 'billing',
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      backoffMs: options.backoffMs,
      maxRetryDelayMs: options.maxDelayMs,
      sleep: options.sleep,
      redirect: 'manual',
      agent: { connections: 8 },
      secretFields: SECRET_FIELDS,
    });
  }

  async call(call: ProviderCall): Promise<CallResult> {
    try {
      const answer = await this.http.send({
        method: call.method,
        url: this.urlOf(call),
        headers: { authorization: this.authorization, accept: 'application/json' },
        json: call.body,
        repeatable: call.repeatable,
      });
      return { kind: 'body', body: answer.body };
    } catch (error) {
      if (!(error instanceof OutboundHttpError)) throw error;
      return this.failed(call, error);
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private urlOf(call: ProviderCall): URL {
    const prefix = this.base.pathname.replace(/\/$/, '');
    const url = new URL(`${prefix}${call.path}`, this.base.origin);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** A call that got no usable answer: what it means for the caller. */
  private failed(call: ProviderCall, error: OutboundHttpError): CallResult {
    const what = `${call.method} ${call.path}`;
    const attempts =
      call.repeatable && this.options.retries > 0 ? ` (${error.attempts} attempts)` : '';
    if (error.status === undefined) {
      const reason =
        error.failure === 'timeout'
          ? `no answer in ${this.options.timeoutMs} ms`
          : innermostMessage(error.cause);
      throw new BillingProviderUnavailable(`${what}: ${reason}${attempts}`, undefined, {
        cause: error.cause,
      });
    }
    const { status } = error;
    if (error.retryable) {
      throw new BillingProviderUnavailable(
        `${what}: the billing provider answered ${status}${attempts}`,
        status,
      );
    }
    if (status === 404) {
      if (call.missingAsNull) return { kind: 'missing' };
      throw new BillingNotFoundError(call.record);
    }
    const errors = errorMessages(error.body);
    if (call.uniquenessToken && (status === 409 || (status === 422 && mentionsToken(errors)))) {
      return { kind: 'duplicate' };
    }
    if (status === 422 || status === 409) throw new BillingProviderError(errors, status);
    throw new BillingProviderUnavailable(
      `${what}: the billing provider answered ${status}${errors.length ? ` (${errors.join('; ')})` : ''}`,
      status,
    );
  }
}

/** The provider's fields whose values never reach a log (card tokens, besides the usual names). */
const SECRET_FIELDS = ['chargify_token', 'full_number', 'cvv', 'bank_account_number'];

/** What a lost connection says: fetch's own error names it in its cause. */
function innermostMessage(error: unknown): string {
  let found = error;
  while ((found as { cause?: unknown } | undefined)?.cause)
    found = (found as { cause: unknown }).cause;
  return found && typeof (found as Error).message === 'string'
    ? (found as Error).message
    : String(found);
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
