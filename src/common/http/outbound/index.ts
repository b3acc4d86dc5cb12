// The outbound HTTP base of the provider clients: timeouts, bounded retries, Retry-After, one
// error, redacted logging.
export { networkError, OUTBOUND_DEFAULTS, OutboundHttp } from './outbound-http';
export type {
  OutboundHttpOptions,
  OutboundLogger,
  OutboundRequest,
  OutboundResponse,
} from './outbound-http';
export { isRetryableStatus, OutboundHttpError } from './outbound-error';
export type { OutboundFailure } from './outbound-error';
export { redactHeaders, redactText, redactUrl, REDACTED, secretNames } from './redact';
export { retryAfterMs } from './retry-after';
