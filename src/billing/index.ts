// Billing (issue 22): the module, what other modules ask of plans, the provider client and money.
export { BillingModule } from './billing.module';
export { FeaturesService } from './features/features.service';
export { BillingCredits } from './adjustments/billing-credits.service';
export type { CreditOutcome } from './adjustments/billing-credits.service';
export { PaymentListeners } from './webhooks/payment-listeners';
export type { PaymentListener, SucceededPayment } from './webhooks/payment-listeners';
export type { OrganizationPlan } from './features/features.service';
export { FEATURES, PLANS } from './plans';
export type { Feature, Limits, Plan, PlanHandle } from './plans';
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
