import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DomainError, SecretBox } from '../common';
import type { RetiredSecret, WebhookEndpoint } from './webhook-endpoint.entity';

/** How long a replaced secret still signs deliveries, so consumers can switch over. */
export const RETIRED_SECRET_HOURS = 24;

/** Secrets signing at once: each adds a signature to every delivery, so their number is bounded. */
export const MAX_ACTIVE_SECRETS = 5;

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A secret is sealed bound to its endpoint, so a copied column opens for no other. */
const aad = (endpointId: string) => `webhook:${endpointId}`;

/** The endpoint's signing secrets: sealing, the ones active now, rotation. */
@Injectable()
export class WebhookSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(endpointId: string, secret: string): string {
    return this.box.encrypt(secret, aad(endpointId));
  }

  /** The current secret first, then the retired ones not yet expired at `now`. */
  active(endpoint: WebhookEndpoint, now: Date): string[] {
    return [
      endpoint.secret,
      ...stillValid(endpoint.retiredSecrets, now).map((retired) => retired.secret),
    ].map((sealed) => this.box.decrypt(sealed, aad(endpoint.id)));
  }

  /**
   * Replaces the current secret; the old one keeps signing for RETIRED_SECRET_HOURS. Refused
   * (409) while MAX_ACTIVE_SECRETS would be exceeded. Changes `endpoint`; answers the new secret.
   */
  rotate(endpoint: WebhookEndpoint, now: Date): { secret: string; retiredUntil: string } {
    const retired = stillValid(endpoint.retiredSecrets, now);
    if (retired.length + 2 > MAX_ACTIVE_SECRETS) {
      const next = retired.map((r) => r.expires).sort()[0];
      throw DomainError.conflict(
        `at most ${MAX_ACTIVE_SECRETS} secrets sign at once; the oldest retired one expires at ${next}`,
      );
    }
    const retiredUntil = new Date(now.getTime() + RETIRED_SECRET_HOURS * 3600_000).toISOString();
    const secret = newSecret();
    endpoint.retiredSecrets = [...retired, { secret: endpoint.secret, expires: retiredUntil }];
    endpoint.secret = this.seal(endpoint.id, secret);
    return { secret, retiredUntil };
  }
}

const stillValid = (retired: RetiredSecret[], now: Date) =>
  retired.filter((r) => Date.parse(r.expires) > now.getTime());
