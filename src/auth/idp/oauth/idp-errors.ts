import { gaxios } from 'google-auth-library';
import { DomainError } from '../../../common';

/**
 * How a call to the provider failed: `invalidGrant` (the code, or the refresh token, is refused:
 * used, expired or revoked), `unauthorized` (an API refused the access token, a refresh did not
 * help), `unavailable` (no answer in time, a network error, a 5xx or 429), `refused` (any other
 * 4xx: our client's configuration). Null for an error that is not the provider's answer.
 */
export type ProviderFailure = 'invalidGrant' | 'unauthorized' | 'unavailable' | 'refused';

export function providerFailure(err: unknown): ProviderFailure | null {
  if (!(err instanceof gaxios.GaxiosError)) return null;
  const res = err.response;
  if ((res?.data as { error?: unknown } | undefined)?.error === 'invalid_grant') {
    return 'invalidGrant';
  }
  if (!res || res.status >= 500 || res.status === 429) return 'unavailable';
  return res.status === 401 ? 'unauthorized' : 'refused';
}

/** A provider's error for the log: its status and OAuth error code, never a token or a URL. */
export function describeFailure(err: unknown): string {
  if (!(err instanceof gaxios.GaxiosError)) return err instanceof Error ? err.name : 'error';
  const data = err.response?.data as { error?: unknown } | undefined;
  const code = typeof data?.error === 'string' ? ` ${data.error}` : '';
  return `${err.response?.status ?? err.code ?? 'no answer'}${code}`;
}

/**
 * What to throw for an unexpected failure: a provider's refusal becomes a plain error naming
 * only its status and code (the request it carries, tokens and all, stays out of the logs);
 * anything else is thrown as it is.
 */
export function unexpected(context: string, err: unknown): unknown {
  if (!providerFailure(err)) return err;
  return new Error(`${context}: the identity provider refused the call (${describeFailure(err)})`);
}

/** 503: the provider did not answer in time, or failed (5xx, 429). */
export const providerUnavailable = () =>
  DomainError.serviceUnavailable('the identity provider did not answer; try again later');
