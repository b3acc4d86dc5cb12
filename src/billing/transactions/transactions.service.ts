import { Injectable } from '@nestjs/common';
import { PageQuery } from '../../common';
import { normalizeDecimal } from '../money';
import { BillingProvider } from '../provider/billing-provider';
import { billingNotConfigured } from '../provider/errors';
import type { Invoice } from '../provider/wire';
import { SubscriptionRepository } from '../store/subscription.repository';
import { BillingTransactionView } from './transaction.view';

const toView = (invoice: Invoice): BillingTransactionView => ({
  id: invoice.uid,
  date: invoice.issue_date,
  kind: 'invoice',
  description: invoice.memo ?? `Invoice ${invoice.number}`,
  amount: normalizeDecimal(invoice.total_amount) ?? invoice.total_amount,
  currency: invoice.currency,
  status: invoice.status,
  url: invoice.public_url,
});

/** The invoices of an organization's subscriptions, newest first. */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
  ) {}

  async list(organizationId: string, page: PageQuery): Promise<BillingTransactionView[]> {
    if (!this.provider.configured) throw billingNotConfigured();
    const limit = page.limit ?? 100;
    const offset = page.offset ?? 0;
    // Each subscription's first offset + limit invoices hold the page's (all are newest first).
    const wanted = offset + limit;
    const lists = await Promise.all(
      (await this.subscriptions.list(organizationId)).map((s) =>
        this.provider.listInvoices(s.providerId, 1, Math.min(wanted, 200)),
      ),
    );
    return lists
      .flat()
      .sort(
        (a, b) =>
          b.issue_date.localeCompare(a.issue_date) || b.created_at.localeCompare(a.created_at),
      )
      .slice(offset, wanted)
      .map(toView);
  }
}
