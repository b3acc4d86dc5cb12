import { getSchemaPath } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { readTally } from '../../cap-table';
import { AccessContext, DomainError } from '../../common';
import { BillingConfig } from '../../config';
import { documentEventObjects, Tx, UnitOfWork } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import { CountSyncRepository } from '../counts/count-sync.repository';
import { CustomersService } from '../customers/customers.service';
import { BillingProvider, SubscriptionRequest } from '../provider/billing-provider';
import {
  billingNotConfigured,
  BillingProviderError,
  BillingProviderUnavailable,
} from '../provider/errors';
import type { Subscription } from '../provider/wire';
import { lockOrganizationBilling } from '../store/organization-lock';
import { BillingPaymentProfile } from '../store/payment-profile.entity';
import { BillingSubscription, isLive } from '../store/subscription.entity';
import { SubscriptionRepository } from '../store/subscription.repository';
import { HeldClaim, SignupClaims } from './signup-claims';
import { SubscriptionDto } from './subscription.dto';
import { applyProviderView, toPreviewPeriod, toSubscriptionView } from './subscription-mapping';
import { SubscriptionPreviewView, SubscriptionView } from './subscription.view';

/**
 * An organization's subscription: signed up for its entity (the provider's customer) with the
 * seat counts of the moment, at most one live; cancelled now or at the period's end.
 */

declare module '../../events' {
  /** A subscription's events carry it as its route shows it. */
  interface EventObjects {
    'subscription.created': SubscriptionView;
  }
}

/** A subscription's events carry it as its route shows it (the provider's cancellation too). */
const subscription = () => ({ $ref: getSchemaPath(SubscriptionView) });
documentEventObjects({
  'subscription.created': subscription,
  'subscription.cancelled': subscription,
});

@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
    @InjectRepository(BillingPaymentProfile)
    private readonly profiles: Repository<BillingPaymentProfile>,
    private readonly customers: CustomersService,
    private readonly countSyncs: CountSyncRepository,
    private readonly organizations: OrganizationsDirectory,
    private readonly claims: SignupClaims,
    private readonly uow: UnitOfWork,
    private readonly env: BillingConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(organizationId: string): Promise<SubscriptionView[]> {
    return (await this.subscriptions.list(organizationId)).map(toSubscriptionView);
  }

  async preview(access: AccessContext, dto: SubscriptionDto): Promise<SubscriptionPreviewView> {
    const request = await this.request(access, dto, this.dataSource.manager);
    const preview = await this.provider.previewSubscription(request);
    return {
      currency: this.env.BILLING_CURRENCY,
      current: toPreviewPeriod(preview.current_billing_manifest),
      next: toPreviewPeriod(preview.next_billing_manifest),
    };
  }

  /**
   * Signs up without holding a transaction or lock across the provider's call: a short
   * transaction claims the organization's signup (409 while it has a live subscription or
   * another signup is under way), the provider is called outside any with the claim's
   * uniqueness token, and a second short transaction stores the signup and ends the claim. A
   * refusal ends the claim; an unknown outcome leaves it, and the next signup re-sends its token
   * (the provider answers a made signup as a duplicate, which is re-read and stored).
   */
  async create(access: AccessContext, dto: SubscriptionDto): Promise<SubscriptionView> {
    const organizationId = access.organizationId!;
    this.assertConfigured();
    const request = await this.request(access, dto, this.dataSource.manager);
    const claim = await this.claims.take(organizationId);
    let made: Subscription | undefined;
    try {
      const result = await this.provider.createSubscription(request, claim.token);
      made = result.duplicate
        ? (await this.provider.listCustomerSubscriptions(request.customerId))[0]
        : result.value;
      if (!made) throw new BillingProviderUnavailable('a signup made is not found at the provider');
    } catch (err) {
      // A refusal made nothing; anything else may have made the signup.
      if (err instanceof DomainError) await this.claims.release(claim);
      else await this.claims.abandon(claim);
      throw err;
    }
    return this.finish(access, claim, made, request, dto.pricePointHandle ?? null).catch(
      async (err: unknown) => {
        // Made at the provider but not stored: the next signup finishes it with the same token.
        await this.claims.abandon(claim);
        throw err;
      },
    );
  }

  /** Stores the signup made and ends its claim, in one short transaction. */
  private finish(
    access: AccessContext,
    claim: HeldClaim,
    made: Subscription,
    request: SubscriptionRequest,
    pricePointHandle: string | null,
  ): Promise<SubscriptionView> {
    const organizationId = access.organizationId!;
    return this.uow.run(async (tx) => {
      await lockOrganizationBilling(tx.manager, organizationId);
      const view = await this.store(tx, access, made, request, pricePointHandle);
      // Taken over meanwhile (this request was silent too long): the new holder records it.
      if (!(await this.claims.finish(tx.manager, claim))) return view;
      // The signup allocated these: a push of the same counts is skipped.
      await this.countSyncs.carried(tx.manager, organizationId, request.seats);
      await tx.record({
        type: 'subscription.created',
        organizationId,
        actorUserId: access.userId,
        object: view,
        description: `subscription to ${view.productHandle}`,
      });
      return view;
    });
  }

  /**
   * Cancels now (`immediate`) or at the end of the current period: the provider is called
   * outside any transaction, then its answer is stored in a short one. Of two cancellations at
   * once the provider refuses the second, which then finds the subscription ended (409).
   */
  async cancel(access: AccessContext, id: string, immediate: boolean): Promise<SubscriptionView> {
    const organizationId = access.organizationId!;
    this.assertConfigured();
    const row = await this.subscriptions.find(id);
    if (!row || row.organizationId !== organizationId) throw DomainError.notFound();
    if (!isLive(row.state)) throw DomainError.conflict('the subscription is not live');
    let seen: Subscription;
    try {
      if (immediate) {
        seen = await this.provider.cancelNow(row.providerId);
      } else {
        await this.provider.cancelAtPeriodEnd(row.providerId);
        seen = await this.provider.getSubscription(row.providerId);
      }
    } catch (err) {
      if (!(err instanceof BillingProviderError)) throw err;
      const now = await this.provider.getSubscription(row.providerId);
      if (isLive(now.state)) throw err;
      await this.applyCancellation(access, id, now);
      throw DomainError.conflict('the subscription is not live');
    }
    return this.applyCancellation(access, id, seen);
  }

  /** Stores the provider's view after a cancellation, recording `subscription.cancelled` once. */
  private applyCancellation(
    access: AccessContext,
    id: string,
    seen: Subscription,
  ): Promise<SubscriptionView> {
    const organizationId = access.organizationId!;
    return this.uow.run(async (tx) => {
      await lockOrganizationBilling(tx.manager, organizationId);
      const row = (await this.subscriptions.find(id, tx.manager))!;
      applyProviderView(row, seen);
      const cancelled = row.state === 'canceled' && !row.cancellationRecorded;
      if (cancelled) row.cancellationRecorded = true;
      const saved = await tx.manager.getRepository(BillingSubscription).save(row);
      const view = toSubscriptionView(saved);
      if (cancelled) {
        await tx.record({
          type: 'subscription.cancelled',
          organizationId,
          actorUserId: access.userId,
          object: view,
          description: `subscription to ${view.productHandle} cancelled`,
        });
      }
      return view;
    });
  }

  private assertConfigured() {
    if (!this.provider.configured) throw billingNotConfigured();
  }

  /** The provider's signup request: the organization's customer, its payment profile, its seats. */
  private async request(
    access: AccessContext,
    dto: SubscriptionDto,
    manager: EntityManager,
  ): Promise<SubscriptionRequest> {
    this.assertConfigured();
    const organizationId = access.organizationId!;
    const organization = await this.organizations.organization(organizationId);
    if (!organization) throw DomainError.notFound();
    let paymentProfileId: number | undefined;
    if (dto.paymentProfileId) {
      const profile = await this.profiles.findOneBy({
        id: dto.paymentProfileId,
        entityId: organization.entityId,
      });
      if (!profile)
        throw DomainError.notFound('paymentProfileId is not a profile of the organization');
      paymentProfileId = profile.providerId;
    }
    const customerId = await this.customers.ensure(organization.entityId, {
      userId: access.userId,
      organizationName: organization.name,
    });
    return {
      productHandle: dto.productHandle,
      pricePointHandle: dto.pricePointHandle,
      customerId,
      paymentProfileId,
      couponCodes: dto.couponCodes,
      seats: await readTally(manager, organizationId),
    };
  }

  /**
   * Our row of the signup (the provider's webhook may have stored it first). Its payment profile
   * is the provider's answer's, else the one asked for, else the entity's default (what the
   * provider charges when none is asked for).
   */
  private async store(
    tx: Tx,
    access: AccessContext,
    made: Subscription,
    request: SubscriptionRequest,
    pricePointHandle: string | null,
  ): Promise<SubscriptionView> {
    const repository = tx.manager.getRepository(BillingSubscription);
    const organization = await this.organizations.organization(access.organizationId!);
    const row =
      (await this.subscriptions.byProviderId(made.id, tx.manager)) ??
      repository.create({
        id: randomUUID(),
        organizationId: access.organizationId!,
        entityId: organization!.entityId,
        providerId: made.id,
        pricePointHandle,
        cancelAtPeriodEnd: false,
        cancellationRecorded: false,
      });
    applyProviderView(row, made);
    row.paymentProfileProviderId ??=
      request.paymentProfileId ?? (await this.defaultProfileId(row.entityId, tx.manager));
    return toSubscriptionView(await repository.save(row));
  }

  private async defaultProfileId(entityId: string, manager: EntityManager): Promise<number | null> {
    const profile = await manager
      .getRepository(BillingPaymentProfile)
      .findOneBy({ entityId, isDefault: true });
    return profile?.providerId ?? null;
  }
}
