import { Injectable } from '@nestjs/common';
import { PageQuery } from '../../common';
import { normalizeDecimal } from '../money';
import { BillingProvider } from '../provider/billing-provider';
import { billingNotConfigured } from '../provider/errors';
import type { Invoice } from '../provider/wire';
import { SubscriptionRepository } from '../store/subscription.repository';
import { newestInvoices } from './newest-invoices';
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
    const subscriptions = await this.subscriptions.list(organizationId);
    const invoices = await newestInvoices(
      subscriptions.map(
        (s) => (pageNumber: number, perPage: number) =>
          this.provider.listInvoices(s.providerId, pageNumber, perPage),
      ),
      offset + limit,
    );
    return invoices.slice(offset).map(toView);
  }
}
