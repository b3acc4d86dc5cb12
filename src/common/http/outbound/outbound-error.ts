/** How a call failed: an answer the caller does not take, no answer in time, none at all, or the caller gave up. */
export type OutboundFailure = 'status' | 'timeout' | 'network' | 'aborted';

/** Statuses worth another attempt of a repeatable call: the provider may answer otherwise soon. */
export const isRetryableStatus = (status: number) =>
  status === 408 || status === 429 || status >= 500;

export interface OutboundErrorDetails {
  provider: string;
  method: string;
  /** Redacted (see redactUrl). */
  url: string;
  failure: OutboundFailure;
  /** The provider's status; undefined when no answer came. */
  status?: number;
  /** The answer's headers, for a provider's request id (not logged). */
  headers?: Headers;
  /** The answer's body: JSON, else its text; undefined when empty or none came (not logged). */
  body?: unknown;
  /** The start of the answer's body, secrets redacted: what logs and messages may show. */
  excerpt: string;
  /** Whether the failure is a transient one (429, 5xx, 408, a timeout, a lost connection). */
  retryable: boolean;
  /** The wait the provider asked for (Retry-After), honoured or not. */
  retryAfterMs?: number;
  attempts: number;
  /** Why the attempts stopped early: the provider asked to wait longer than the cap. */
  retryAfterOverCap: boolean;
}

/**
 * The one error of every outbound call: the provider answered a status the caller does not take,
 * or no answer came. Provider clients map it to their own errors; its message names the redacted
 * URL and the excerpt only, so it may be logged as it is.
 */
export class OutboundHttpError extends Error implements OutboundErrorDetails {
  readonly provider!: string;
  readonly method!: string;
  readonly url!: string;
  readonly failure!: OutboundFailure;
  readonly status?: number;
  readonly excerpt!: string;
  readonly retryable!: boolean;
  readonly retryAfterMs?: number;
  readonly attempts!: number;
  readonly retryAfterOverCap!: boolean;
  declare readonly headers?: Headers;
  declare readonly body?: unknown;

  constructor(message: string, details: OutboundErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundHttpError';
    const { headers, body, ...shown } = details;
    Object.assign(this, shown);
    // Kept off what inspecting or serializing the error shows: the body may carry what the
    // excerpt redacts.
    Object.defineProperties(this, {
      headers: { value: headers, enumerable: false },
      body: { value: body, enumerable: false },
    });
  }
}
