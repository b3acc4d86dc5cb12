import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The machine callers the API knows, each proving itself its own way:
 * - `gatewayToken`: the messaging gateway, `Authorization: Bearer CHAT_GATEWAY_TOKEN` (chat);
 * - `billingSignature`: the billing provider, an HMAC of the raw body with BILLING_SITE_SHARED_KEY
 *   (billing);
 * - `hooksToken`: outside systems calling the gateway hooks with HOOKS_TOKEN (hooks);
 * - `apiKey`: integrators' API keys. None is issued yet (a later issue): no module verifies them,
 *   so a route declaring this kind refuses every call.
 */
export const MACHINE_KINDS = ['gatewayToken', 'billingSignature', 'hooksToken', 'apiKey'] as const;
export type MachineKind = (typeof MACHINE_KINDS)[number];

/** Checks one kind's credential; the module that owns the credential registers it. */
export interface MachineVerifier {
  /**
   * Whether the request carries an accepted credential. A missing or wrong one is `false`, never
   * an exception: the guard counts it as a failed check and answers 401.
   */
  accepts(req: Request): boolean | Promise<boolean>;
  /** The 401's message when it does not. */
  readonly refusal: string;
}

/**
 * Kind → verifier, filled by the modules at start-up (chat: `gatewayToken`, billing:
 * `billingSignature`, hooks: `hooksToken`). The access guard decides `@Machine(kind)` routes
 * through it; a kind nobody registered (`apiKey`, or hooks while they are off) refuses every
 * call.
 */
@Injectable()
export class MachineVerifiers {
  private readonly verifiers = new Map<MachineKind, MachineVerifier>();

  register(kind: MachineKind, verifier: MachineVerifier) {
    if (this.verifiers.has(kind)) throw new Error(`Machine verifier "${kind}" registered twice`);
    this.verifiers.set(kind, verifier);
  }

  get(kind: MachineKind): MachineVerifier | undefined {
    return this.verifiers.get(kind);
  }
}

/**
 * The Nest token of the `TokenFailureThrottle` the access guard counts failed machine checks in
 * (per kind and client IP); the composition root makes it on the session Redis client.
 */
export const MACHINE_FAILURES = Symbol('MACHINE_FAILURES');

/**
 * The OpenAPI security schemes of each kind (see `openApiDocument`); several are alternatives.
 * `apiKey` names a scheme that no credential satisfies yet.
 */
export const MACHINE_SECURITY: Record<MachineKind, readonly string[]> = {
  gatewayToken: ['gatewayToken'],
  billingSignature: ['billingSignature'],
  hooksToken: ['hooksToken', 'hooksTokenHeader', 'hooksTokenQuery'],
  apiKey: ['apiKey'],
};
