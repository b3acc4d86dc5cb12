// Billing (issue 22, in progress): so far the client of the billing provider and the money helpers.
export { BILLING_PROVIDER_OPTIONS, BillingProvider } from './provider/billing-provider';
export type {
  AllocationRequest,
  NewCustomer,
  PaymentProfileChanges,
  SeatCounts,
  SubscriptionRequest,
  UniqueWrite,
} from './provider/billing-provider';
export {
  billingNotConfigured,
  BillingNotFoundError,
  BillingProviderError,
  BillingProviderUnavailable,
} from './provider/errors';
export type * as BillingWire from './provider/wire';
export { centsToDecimal, decimalToCents, normalizeDecimal } from './money';
