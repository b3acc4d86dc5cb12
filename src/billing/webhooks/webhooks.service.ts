import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError } from '../../common';
import { Env } from '../../config';
import { documentEventObjects, DomainEvent, Tx, UnitOfWork } from '../../events';
import { OrganizationsDirectory } from '../../organizations';
import { centsToDecimal } from '../money';
import type { SubscriptionState } from '../provider/wire';
import { lockOrganizationBilling } from '../store/organization-lock';
import { ReceivedWebhook } from '../store/received-webhook.entity';
import { BillingSubscription } from '../store/subscription.entity';
import { SubscriptionRepository } from '../store/subscription.repository';
import {
  applyProviderView,
  SubscriptionFacts,
  toSubscriptionView,
} from '../subscriptions/subscription-mapping';
import { PaymentListeners } from './payment-listeners';
import { field, Form, parseForm } from './webhook-form';

/** Events that carry the subscription's state as the provider holds it. */
const SUBSCRIPTION_EVENTS = new Set([
  'signup_success',
  'subscription_state_change',
  'subscription_product_change',
  'component_allocation_change',
  'payment_success',
  'payment_failure',
  'renewal_success',
  'renewal_failure',
]);

const PAYMENT_EVENTS: Record<string, 'payment.succeeded' | 'payment.failed'> = {
  payment_success: 'payment.succeeded',
  renewal_success: 'payment.succeeded',
  payment_failure: 'payment.failed',
  renewal_failure: 'payment.failed',
};

/**
 * The provider's webhooks: signed, handled once per webhook id, in one transaction and without a
 * call back to the provider (it waits 15 s). Subscription views apply unless older than ours;
 * payments become `payment.*` events; anything else is recorded only.
 */

/** A payment's event names the provider's webhook and our subscription (`paymentEvent`). */
const payment = () => ({
  type: 'object',
  required: ['webhook', 'subscription', 'amount', 'currency', 'memo'],
  properties: {
    webhook: { type: 'string', description: 'The provider’s webhook id' },
    subscription: { type: 'string', nullable: true, description: 'Our subscription, if known' },
    amount: { type: 'string', nullable: true, example: '49.00' },
    currency: { type: 'string', example: 'USD' },
    memo: { type: 'string', nullable: true },
  },
});
documentEventObjects({ 'payment.succeeded': payment, 'payment.failed': payment });

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly env: Env,
    private readonly uow: UnitOfWork,
    private readonly subscriptions: SubscriptionRepository,
    private readonly organizations: OrganizationsDirectory,
    private readonly payments: PaymentListeners,
  ) {}

  /** A webhook whose signature the access guard has checked (`WebhookSignatureVerifier`). */
  async receive(raw: Buffer, headerId?: string): Promise<void> {
    const form = parseForm(raw.toString('utf8'));
    // Idempotent by the header's id; the body's is the same one (a sender may send only that).
    const bodyId = field(form, 'id');
    const id = headerId?.trim() || bodyId;
    const event = field(form, 'event');
    if (!id || !event) throw DomainError.badRequest('a webhook has an id and an event');
    if (bodyId && bodyId !== id) {
      throw DomainError.badRequest('X-Chargify-Webhook-Id and the body’s id differ');
    }
    await this.uow.run(async (tx) => {
      const first = await tx.manager
        .createQueryBuilder()
        .insert()
        .into(ReceivedWebhook)
        .values({ id, event })
        .orIgnore()
        .returning(['id'])
        .execute();
      if (!first.raw.length) return; // a repeat: handled already
      const organizationId = await this.organizationOf(form, tx.manager);
      if (!organizationId) {
        this.logger.warn(
          `webhook ${id} (${event}) is about no organization of ours: recorded only`,
        );
        return;
      }
      await lockOrganizationBilling(tx.manager, organizationId);
      await tx.manager.update(ReceivedWebhook, { id }, { organizationId });
      const subscription = SUBSCRIPTION_EVENTS.has(event)
        ? await this.applySubscription(tx, organizationId, form)
        : null;
      const payment = PAYMENT_EVENTS[event];
      if (!payment) return;
      const money = this.amountOf(form);
      await tx.record(this.paymentEvent(payment, organizationId, id, form, money, subscription));
      if (payment === 'payment.succeeded') {
        await this.payments.succeeded(tx, { organizationId, webhookId: id, ...money });
      }
    });
  }

  /** By the subscription we hold, else by the customer's reference (the entity's id). */
  private async organizationOf(form: Form, manager: EntityManager): Promise<string | null> {
    const providerId = Number(field(form, 'payload', 'subscription', 'id'));
    if (Number.isSafeInteger(providerId) && providerId > 0) {
      const known = await this.subscriptions.byProviderId(providerId, manager);
      if (known) return known.organizationId;
    }
    const reference =
      field(form, 'payload', 'subscription', 'customer', 'reference') ??
      field(form, 'payload', 'customer', 'reference');
    if (!reference || !/^[0-9a-f-]{36}$/i.test(reference)) return null;
    return this.organizations.organizationOfEntity(reference);
  }

  /**
   * Takes the webhook's view of the subscription unless ours is newer; a subscription we do not
   * hold yet (its signup's answer is still on its way) is stored. Its cancellation is recorded once.
   */
  private async applySubscription(
    tx: Tx,
    organizationId: string,
    form: Form,
  ): Promise<BillingSubscription | null> {
    const facts = subscriptionFacts(form);
    const providerId = Number(field(form, 'payload', 'subscription', 'id'));
    if (!facts || !Number.isSafeInteger(providerId)) return null;
    const repository = tx.manager.getRepository(BillingSubscription);
    let row = await this.subscriptions.byProviderId(providerId, tx.manager);
    if (!row) {
      const organization = await this.organizations.organization(organizationId);
      if (!organization) return null;
      row = repository.create({
        id: randomUUID(),
        organizationId,
        entityId: organization.entityId,
        providerId,
        pricePointHandle: null,
        cancelAtPeriodEnd: false,
        cancellationRecorded: false,
      });
    }
    if (!applyProviderView(row, facts)) return row;
    const cancelled = row.state === 'canceled' && !row.cancellationRecorded;
    if (cancelled) row.cancellationRecorded = true;
    const saved = await repository.save(row);
    if (cancelled) {
      const view = toSubscriptionView(saved);
      await tx.record({
        type: 'subscription.cancelled',
        organizationId,
        actorUserId: null,
        object: view,
        description: `subscription to ${view.productHandle} cancelled at the provider`,
      });
    }
    return saved;
  }

  /** The transaction's amount (null when the webhook carries none) and currency. */
  private amountOf(form: Form): { amount: string | null; currency: string } {
    const cents = Number(field(form, 'payload', 'transaction', 'amount_in_cents'));
    return {
      amount: Number.isSafeInteger(cents) ? centsToDecimal(cents) : null,
      currency: field(form, 'payload', 'transaction', 'currency') ?? this.env.BILLING_CURRENCY,
    };
  }

  private paymentEvent(
    type: 'payment.succeeded' | 'payment.failed',
    organizationId: string,
    webhookId: string,
    form: Form,
    { amount, currency }: { amount: string | null; currency: string },
    subscription: BillingSubscription | null,
  ): DomainEvent {
    return {
      type,
      organizationId,
      actorUserId: null,
      object: {
        webhook: webhookId,
        subscription: subscription?.id ?? null,
        amount,
        currency,
        memo: field(form, 'payload', 'transaction', 'memo') ?? null,
      },
      description: `payment ${type === 'payment.succeeded' ? 'of' : 'failed:'} ${amount ?? '?'} ${currency}`,
    };
  }
}

/** The subscription's state in the webhook, if it carries one. */
function subscriptionFacts(form: Form): SubscriptionFacts | null {
  const state = field(form, 'payload', 'subscription', 'state') as SubscriptionState | undefined;
  const updatedAt = field(form, 'payload', 'subscription', 'updated_at');
  const handle = field(form, 'payload', 'subscription', 'product', 'handle');
  if (!state || !updatedAt || !handle || Number.isNaN(Date.parse(updatedAt))) return null;
  // The card it pays with now (a change of card arrives as a subscription's state).
  const card = Number(field(form, 'payload', 'subscription', 'credit_card', 'id'));
  return {
    ...(Number.isSafeInteger(card) && card > 0 ? { credit_card: { id: card } } : {}),
    state,
    updated_at: updatedAt,
    current_period_ends_at:
      field(form, 'payload', 'subscription', 'current_period_ends_at') ?? null,
    cancel_at_end_of_period:
      field(form, 'payload', 'subscription', 'cancel_at_end_of_period') === 'true',
    product: { handle },
  };
}
