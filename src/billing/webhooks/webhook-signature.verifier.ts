import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { MachineVerifier, MachineVerifiers } from '../../common';
import { Env } from '../../config';
import { signedBy } from './webhook-form';

/** The header the provider signs its webhooks in. */
export const SIGNATURE_HEADER = 'x-chargify-webhook-signature-hmac-sha-256';

/**
 * The billing provider's credential (`@Machine('billingSignature')`): the hex HMAC-SHA256 of the
 * raw body (`@RawBody()`: `req.body` holds the exact bytes) with BILLING_SITE_SHARED_KEY, compared
 * in constant time. While billing is not configured every webhook is refused.
 */
@Injectable()
export class WebhookSignatureVerifier implements MachineVerifier, OnModuleInit {
  readonly refusal = 'the webhook is not signed with the site shared key';

  constructor(
    private readonly env: Env,
    private readonly verifiers: MachineVerifiers,
  ) {}

  onModuleInit() {
    this.verifiers.register('billingSignature', this);
  }

  accepts(req: Request): boolean {
    const key = this.env.BILLING_SITE_SHARED_KEY;
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    return this.env.billingConfigured && !!key && signedBy(key, raw, req.get(SIGNATURE_HEADER));
  }
}
