import { Injectable } from '@nestjs/common';
import type { Tx } from '../../events';

/** A payment the provider reported as succeeded (`payment_success`, `renewal_success`). */
export interface SucceededPayment {
  organizationId: string;
  /** The provider's webhook id: each payment is reported once. */
  webhookId: string;
  /** Two decimals; null when the webhook did not say. */
  amount: string | null;
  currency: string;
}

export type PaymentListener = (tx: Tx, payment: SucceededPayment) => Promise<void>;

/**
 * Who else acts on an organization's successful payment (the referral program earns its card),
 * in the transaction that records `payment.succeeded`: the webhook is handled once, so is each
 * listener's work, and a listener's failure leaves the webhook for the provider to send again.
 * Listeners register at start-up, so billing needs no import of theirs.
 */
@Injectable()
export class PaymentListeners {
  private readonly listeners: PaymentListener[] = [];

  onSucceeded(listener: PaymentListener): void {
    this.listeners.push(listener);
  }

  async succeeded(tx: Tx, payment: SucceededPayment): Promise<void> {
    for (const listener of this.listeners) await listener(tx, payment);
  }
}
