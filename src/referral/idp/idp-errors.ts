import { DomainError } from '../../common';

/** 404 `idpNotConnected`: no grant is stored, or the provider no longer accepts it. */
export const notConnected = (message = 'no contacts are connected: connect them first') =>
  DomainError.keyed('idpNotConnected', message);

/** 503: the provider did not answer in time, or failed (5xx, 429). */
export const providerUnavailable = () =>
  DomainError.serviceUnavailable('the identity provider did not answer; try again later');
