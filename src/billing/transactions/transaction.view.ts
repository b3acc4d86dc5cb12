import { MoneyView } from '../view-fields';

/** A billing transaction of the organization: an invoice of its subscriptions. */
export class BillingTransactionView {
  /** The provider's id (`inv_...`). */
  id: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** `invoice`. */
  kind: string;
  description: string;
  @MoneyView()
  amount: string;
  /** ISO 4217. */
  currency: string;
  /** `paid`, `open`, `pending`, `voided`, `canceled` ... */
  status: string;
  /** The invoice as the customer sees it. */
  url: string | null;
}
