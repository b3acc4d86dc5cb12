/**
 * What each plan gives: the features a module may ask for and the seat limits (null = no limit).
 * Paid plans are the provider's products, by handle; an organization without a live subscription
 * is on `free`.
 */
export const FEATURES = [
  'capTable',
  'documents',
  'dataRoom',
  'equityPlans',
  'modeling',
  'ocf',
] as const;

export type Feature = (typeof FEATURES)[number];

export interface Limits {
  members: number | null;
  shareholders: number | null;
  /** Organization files, in megabytes. */
  storageMb: number | null;
}

export interface Plan {
  handle: PlanHandle;
  features: Record<Feature, boolean>;
  limits: Limits;
}

export type PlanHandle = 'free' | 'starter' | 'growth';

const only = (...enabled: Feature[]) =>
  Object.fromEntries(FEATURES.map((f) => [f, enabled.includes(f)])) as Record<Feature, boolean>;

export const PLANS: Readonly<Record<PlanHandle, Plan>> = {
  free: {
    handle: 'free',
    features: only('capTable', 'documents'),
    limits: { members: 10, shareholders: 10, storageMb: 100 },
  },
  starter: {
    handle: 'starter',
    features: only('capTable', 'documents', 'dataRoom', 'equityPlans'),
    limits: { members: 50, shareholders: 50, storageMb: 5_000 },
  },
  growth: {
    handle: 'growth',
    features: only(...FEATURES),
    limits: { members: null, shareholders: null, storageMb: 50_000 },
  },
};

/** The lowest paid plan: what a product handle we do not know gets. */
export const LOWEST_PAID: PlanHandle = 'starter';

/** The plan of a provider product handle; `known` false when it fell back to the lowest paid plan. */
export function planOfProduct(productHandle: string): { plan: Plan; known: boolean } {
  const known = productHandle === 'starter' || productHandle === 'growth';
  return { plan: PLANS[known ? productHandle : LOWEST_PAID], known };
}
