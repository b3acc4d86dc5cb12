/**
 * A realistic draft as a model sends it (plain JSON), for the unit tests: two founders with
 * common, a preferred investor, a plan with two pools, a grant on 4-year monthly vesting with a
 * 1-year cliff, and a SAFE.
 */
export const fullDraftInput = () => ({
  organization: {
    name: 'Acme Robotics',
    legal_name: 'Acme Robotics, Inc.',
    country_of_formation: 'US',
    currency: 'USD',
    entity_type: 'corporation',
    confidence: 0.9,
    source: 'prompt',
  },
  people: [
    {
      id: 'alice',
      name: 'Alice Smith',
      email: 'alice@acme.io',
      title: 'CEO',
      stakeholder_type: 'INDIVIDUAL',
      confidence: 0.95,
    },
    { id: 'bob', name: 'Bob Jones', email: 'bob@acme.io', title: 'CTO', confidence: 0.95 },
    {
      id: 'seed',
      name: 'Seedling Ventures LP',
      stakeholder_type: 'INSTITUTION',
      confidence: 0.8,
      source: 'document',
    },
    { id: 'carol', name: 'Carol White', email: 'carol@acme.io', confidence: 0.7 },
    { id: 'dan', name: 'Dan Angel', confidence: 0.6 },
  ],
  shareClasses: [
    {
      id: 'common',
      name: 'Common',
      class_type: 'COMMON',
      default_id_prefix: 'CS-',
      initial_shares_authorized: '10000000',
      par_value: '0.00001',
      confidence: 0.9,
    },
    {
      id: 'seed-pref',
      name: 'Series Seed Preferred',
      class_type: 'PREFERRED',
      initial_shares_authorized: '2000000',
      price_per_share: '1.00',
      seniority: 2,
      confidence: 0.8,
    },
  ],
  shareholdings: [
    {
      id: 'alice-common',
      stakeholder_id: 'alice',
      stock_class_id: 'common',
      quantity: '4000000',
      share_price: '0.00001',
      date: '2023-01-10',
      confidence: 0.9,
    },
    {
      id: 'bob-common',
      stakeholder_id: 'bob',
      stock_class_id: 'common',
      quantity: 4000000,
      date: '2023-01-10',
      confidence: 0.9,
    },
    {
      id: 'seed-pref',
      stakeholder_id: 'seed',
      stock_class_id: 'seed-pref',
      quantity: '1500000',
      share_price: '1',
      date: '2024-02-01',
      confidence: 0.8,
    },
  ],
  optionPlans: [
    {
      id: 'plan',
      plan_name: '2024 Equity Incentive Plan',
      stock_class_id: 'common',
      initial_shares_reserved: '1500000',
      board_approval_date: '2024-01-15',
      confidence: 0.8,
    },
  ],
  optionPools: [
    {
      id: 'employees',
      stock_plan_id: 'plan',
      name: 'Employees',
      shares_reserved: '1000000',
      confidence: 0.7,
    },
    {
      id: 'advisors',
      stock_plan_id: 'plan',
      name: 'Advisors',
      shares_reserved: '500000',
      confidence: 0.7,
    },
  ],
  vestingSchedules: [
    {
      id: '4y-1y-cliff',
      name: '4 years monthly, 1-year cliff',
      period_length: 1,
      period_type: 'MONTHS',
      occurrences: 48,
      cliff_installment: 12,
      confidence: 0.9,
    },
  ],
  optionGrants: [
    {
      id: 'carol-grant',
      stakeholder_id: 'carol',
      stock_plan_id: 'plan',
      pool_id: 'advisors',
      quantity: '100000',
      exercise_price: '0.10',
      date: '2024-03-01',
      expiration_date: '2034-02-28',
      vesting_terms_id: '4y-1y-cliff',
      vesting_start_date: '2024-02-15',
      confidence: 0.7,
    },
  ],
  convertibles: [
    {
      id: 'dan-safe',
      stakeholder_id: 'dan',
      convertible_type: 'SAFE',
      investment_amount: '250000',
      date: '2024-06-01',
      valuation_cap: '10000000',
      discount: '0.2',
      confidence: 0.6,
    },
  ],
  questions: [
    {
      text: 'When was Acme Robotics incorporated?',
      kind: 'date',
      required: false,
      item_id: null,
      field_path: null,
    },
  ],
});
