import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, DomainError } from '../../common';
import { lockOrganizationBilling } from '../store/organization-lock';
import { SignupClaim } from '../store/signup-claim.entity';
import { SubscriptionRepository } from '../store/subscription.repository';

/**
 * Longer than a signup's provider call can last (10 s per attempt, 3 attempts, their waits): a
 * claim whose holder was silent this long belongs to a request that is gone (its process died).
 */
export const SIGNUP_CLAIM_STALE_MS = 2 * 60_000;

/** A claim held by one request: the token it sends, and its own mark as holder. */
export interface HeldClaim {
  organizationId: string;
  token: string;
  holder: string;
}

/**
 * The signup claims (`billing_signup_claim`): each step is a short transaction of its own under
 * the organization's billing lock, none spans the provider's call.
 */
@Injectable()
export class SignupClaims {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly subscriptions: SubscriptionRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the organization's signup: 409 while it has a live subscription, or while another
   * signup is calling the provider. A claim left by a signup that ended without knowing the
   * provider's answer (or whose process died) is taken over with its token.
   */
  take(organizationId: string, now = this.clock.now()): Promise<HeldClaim> {
    return this.dataSource.transaction(async (manager) => {
      await lockOrganizationBilling(manager, organizationId);
      const claims = manager.getRepository(SignupClaim);
      const existing = await claims.findOneBy({ organizationId });
      const stale =
        existing !== null &&
        (existing.holder === null ||
          now.getTime() - existing.claimedAt.getTime() >= SIGNUP_CLAIM_STALE_MS);
      if (await this.subscriptions.live(organizationId, manager)) {
        // A stale claim's subscription arrived otherwise (the provider's webhook): nothing to finish.
        if (stale) await claims.delete({ organizationId });
        throw DomainError.conflict('the organization has a live subscription already');
      }
      if (existing && !stale) {
        throw DomainError.conflict('a signup of the organization is under way: retry in a minute');
      }
      const holder = randomUUID();
      const token = existing?.token ?? `signup:${organizationId}:${randomUUID()}`;
      await claims.save({ organizationId, token, holder, claimedAt: now });
      return { organizationId, token, holder };
    });
  }

  /**
   * Ends the claim as its signup is stored (in that transaction); false when it is no longer
   * this holder's (taken over meanwhile: the new holder records the signup).
   */
  async finish(manager: EntityManager, claim: HeldClaim): Promise<boolean> {
    const result = await manager.delete(SignupClaim, {
      organizationId: claim.organizationId,
      holder: claim.holder,
    });
    return Boolean(result.affected);
  }

  /** The provider refused the signup: nothing was made, the claim goes. */
  async release(claim: HeldClaim): Promise<void> {
    await this.dataSource.manager.delete(SignupClaim, {
      organizationId: claim.organizationId,
      holder: claim.holder,
    });
  }

  /**
   * The call's outcome is unknown (no usable answer): the claim stays, with its token, free for
   * the next signup to take over at once (it re-sends the token: a made signup is found).
   */
  async abandon(claim: HeldClaim): Promise<void> {
    await this.dataSource.manager.update(
      SignupClaim,
      { organizationId: claim.organizationId, holder: claim.holder },
      { holder: null },
    );
  }
}
