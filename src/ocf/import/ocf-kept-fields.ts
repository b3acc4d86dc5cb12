/** The tables of the mapping: the fields each object that is not a transaction keeps, the issuances. */

/**
 * Object fields each kind keeps; every other field present is reported as a warning. (A
 * transaction's are its importer's `keeps`, with the transaction definition that imports it.)
 */
export const KEPT: Record<string, string[]> = {
  STAKEHOLDER: ['object_type', 'id', 'name', 'contact_info', 'stakeholder_type'],
  STOCK_CLASS: [
    'object_type',
    'id',
    'name',
    'class_type',
    'default_id_prefix',
    'initial_shares_authorized',
    'board_approval_date',
    'votes_per_share',
    'par_value',
    'price_per_share',
    'seniority',
    'conversion_rights',
    'liquidation_preference_multiple',
    'participation_cap_multiple',
  ],
  STOCK_LEGEND_TEMPLATE: ['object_type', 'id', 'name', 'text'],
  STOCK_PLAN: [
    'object_type',
    'id',
    'plan_name',
    'board_approval_date',
    'stockholder_approval_date',
    'initial_shares_reserved',
    'default_cancellation_behavior',
    'stock_class_ids',
  ],
  VESTING_TERMS: ['object_type', 'id', 'name', 'allocation_type', 'vesting_conditions'],
  VALUATION: [
    'object_type',
    'id',
    'provider',
    'price_per_share',
    'effective_date',
    'valuation_type',
    'stock_class_id',
  ],
};

/** A log entry of the manifest's comments, as a timeline item. */
export const MANIFEST_ENTRY = 'LEDGERLINE_TRANSACTION';

/** Transactions that issue a security (its `security_id` names it afterwards). */
export const ISSUANCES = new Set([
  'TX_STOCK_ISSUANCE',
  'TX_EQUITY_COMPENSATION_ISSUANCE',
  'TX_WARRANT_ISSUANCE',
  'TX_CONVERTIBLE_ISSUANCE',
  'TX_PLAN_SECURITY_ISSUANCE',
]);
