import { DomainError } from '../../common';

/** 404 `idpNotConnected`: no grant is stored, or the provider no longer accepts it. */
export const notConnected = (message = 'no contacts are connected: connect them first') =>
  DomainError.keyed('idpNotConnected', message);
