import { DomainError } from '../../common';

/** Every call while BILLING_PROVIDER_URL and BILLING_API_KEY are unset: nothing is sent. */
export const billingNotConfigured = (what = 'BILLING_PROVIDER_URL and BILLING_API_KEY are unset') =>
  DomainError.keyed('billingNotConfigured', `billing is not configured: ${what}`);

/**
 * The provider refused the request (422 `{errors}`, or a 409 that is not a repeated uniqueness
 * token): the caller's input, answered 400 with the provider's messages.
 */
export class BillingProviderError extends DomainError {
  constructor(
    readonly errors: string[],
    readonly providerStatus: number,
  ) {
    super('badRequest', 400, errors.join('; ') || 'the billing provider refused the request');
    this.name = 'BillingProviderError';
  }
}

/** A record the provider does not have (404). */
export class BillingNotFoundError extends DomainError {
  constructor(what: string) {
    super('notFound', 404, `${what} not found at the billing provider`);
    this.name = 'BillingNotFoundError';
  }
}

/**
 * The provider gave no usable answer: 429 or 5xx (after the retries a call may have), a timeout,
 * a connection failure, refused credentials, an answer we cannot read. Not a DomainError: the
 * exception filter logs it and answers 500.
 */
export class BillingProviderUnavailable extends Error {
  constructor(
    message: string,
    /** The provider's HTTP status, if it answered. */
    readonly providerStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BillingProviderUnavailable';
  }
}
