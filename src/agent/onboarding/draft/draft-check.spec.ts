import { checkDraft, draftTotals } from './draft-check';
import { labelOf } from './draft-collections';
import { fullDraftInput } from './draft-fixture';
import { validateDraft } from './draft-validation';
import type { OnboardingDraft } from './onboarding-draft.dto';

type Input = ReturnType<typeof fullDraftInput>;

const options = { currency: 'USD', fractional: false, today: '2025-01-02' };

function draftOf(change: (d: Input) => void = () => undefined): OnboardingDraft {
  const input = fullDraftInput();
  change(input);
  const result = validateDraft(input);
  if ('errors' in result) throw new Error(result.errors.join('\n'));
  return result.draft;
}

const problemsOf = (change: (d: Input) => void, more = {}) =>
  checkDraft(draftOf(change), { ...options, ...more }).problems;

describe('checkDraft', () => {
  it('finds no problem in the full draft, which the OCF import plans as expected', () => {
    const check = checkDraft(draftOf(), options);
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([]);
    const plan = check.plan!;
    expect(plan.counts).toMatchObject({
      stakeholders: 5,
      membersCreated: 5,
      stockClasses: 2,
      stockPlans: 1,
      vestingTerms: 1,
      transactions: {
        TX_STOCK_ISSUANCE: 3,
        TX_EQUITY_COMPENSATION_ISSUANCE: 1,
        TX_CONVERTIBLE_ISSUANCE: 1,
      },
    });
    const classes = [...plan.state.securities.values()].map((s) => [
      s.name,
      s.classType,
      s.authorized.toFixed(),
      s.issued.toFixed(),
      s.reserved.toFixed(),
    ]);
    expect(classes).toEqual([
      ['Common', 'common', '10000000', '8000000', '1500000'],
      ['Series Seed Preferred', 'preferred', '2000000', '1500000', '0'],
    ]);
    const pools = [...plan.state.pools.values()].map((p) => [
      p.name,
      p.sharesReserved.toFixed(),
      p.granted.toFixed(),
    ]);
    expect(pools).toEqual([
      ['Employees', '1000000', '0'],
      ['Advisors', '500000', '100000'],
    ]);
    const [schedule] = [...plan.state.schedules.values()];
    expect(schedule).toMatchObject({
      totalPeriods: 48,
      periodLength: 1,
      periodType: 'months',
      cliffPeriods: 12,
    });
    const grant = [...plan.state.holdings.values()].find((h) => h.type === 'option')!;
    expect(grant.vestingScheduleId).toBe(schedule.id);
    expect(grant.terms).toMatchObject({
      quantity: '100000',
      exercisePrice: '0.1',
      grantDate: '2024-03-01',
      vestingStartDate: '2024-02-15',
      expirationDate: '2034-02-28',
    });
    const safe = [...plan.state.holdings.values()].find((h) => h.type === 'safe')!;
    expect(safe.terms).toMatchObject({
      amount: '250000',
      valuationCap: '10000000',
      discount: '20',
      currency: 'USD',
    });
  });

  it('reports issuing more than authorized on that shareholding’s quantity', () => {
    const problems = problemsOf((d) => (d.shareholdings[1].quantity = 5_000_000));
    expect(problems).toEqual([
      {
        collection: 'shareholdings',
        index: 1,
        fieldPath: 'quantity',
        reason:
          'class Common has 4500000 unissued shares (1500000 more are reserved for plans), less than 5000000',
      },
    ]);
  });

  it('reports a plan reserving more than its class has on its reservation', () => {
    const problems = problemsOf((d) => (d.shareClasses[0].initial_shares_authorized = '1000000'));
    expect(problems).toEqual([
      expect.objectContaining({
        collection: 'optionPlans',
        index: 0,
        fieldPath: 'initial_shares_reserved',
      }),
    ]);
  });

  it('reports a grant beyond its pool on its quantity', () => {
    const problems = problemsOf((d) => (d.optionGrants[0].quantity = '600000'));
    expect(problems).toEqual([
      {
        collection: 'optionGrants',
        index: 0,
        fieldPath: 'quantity',
        reason: 'pool Advisors has 500000 shares available, less than 600000',
      },
    ]);
  });

  it('reports pools that reserve more than their plan on the plan', () => {
    const problems = problemsOf((d) => (d.optionPools[1].shares_reserved = '900000'));
    expect(problems).toEqual([
      expect.objectContaining({
        collection: 'optionPlans',
        index: 0,
        fieldPath: 'initial_shares_reserved',
      }),
    ]);
    expect(problems[0].reason).toMatch(
      /^plan 2024 Equity Incentive Plan reserves 1500000 shares, less than its pools' 1900000/,
    );
  });

  it('reports a stakeholder_id that names no person, and checks the rest all the same', () => {
    const problems = problemsOf((d) => {
      d.shareholdings[0].stakeholder_id = 'alicia';
      d.shareholdings[1].quantity = 9_000_000;
    });
    expect(problems).toEqual([
      {
        collection: 'shareholdings',
        index: 0,
        fieldPath: 'stakeholder_id',
        reason: 'no person has the id alicia',
      },
      expect.objectContaining({ collection: 'shareholdings', index: 1, fieldPath: 'quantity' }),
    ]);
  });

  it('reports duplicate ids; references resolve to the first', () => {
    const problems = problemsOf((d) => {
      d.people.push({ ...d.people[0], name: 'Alice Twin' });
    });
    expect(problems).toEqual([
      {
        collection: 'people',
        index: 5,
        fieldPath: 'id',
        reason: 'the id alice is also the id of people item 0',
      },
    ]);
  });

  it('leaves out what depends on an item with a problem, and a pool of another plan', () => {
    const problems = problemsOf((d) => {
      d.optionPlans[0].stock_class_id = 'ordinary';
      d.optionPlans.push({
        ...d.optionPlans[0],
        id: 'plan-2',
        stock_class_id: 'common',
        initial_shares_reserved: '0',
      });
      d.optionPools[0].stock_plan_id = 'plan-2';
      d.optionGrants[0].pool_id = 'employees';
    });
    expect(problems).toEqual([
      {
        collection: 'optionPlans',
        index: 0,
        fieldPath: 'stock_class_id',
        reason: 'no shareClass has the id ordinary',
      },
      {
        collection: 'optionGrants',
        index: 0,
        fieldPath: 'pool_id',
        reason: 'the pool Employees is a pool of the plan plan-2, not of plan',
      },
      // Plan 2 reserves nothing: its pool is larger than it.
      expect.objectContaining({
        collection: 'optionPlans',
        index: 1,
        fieldPath: 'initial_shares_reserved',
      }),
    ]);
  });

  it('needs a class for shareholdings and plans, and a name for the organization', () => {
    const problems = problemsOf((d) => {
      delete (d.shareholdings[2] as Partial<Input['shareholdings'][number]>).stock_class_id;
      delete (d.organization as Partial<Input['organization']>).name;
    });
    expect(problems).toEqual([
      {
        collection: 'organization',
        index: null,
        fieldPath: 'name',
        reason: 'the organization needs a name',
      },
      {
        collection: 'shareholdings',
        index: 2,
        fieldPath: 'stock_class_id',
        reason: 'needs a share class',
      },
    ]);
  });

  it('reports a note without a maturity date on maturity_date', () => {
    const problems = problemsOf((d) => {
      d.convertibles[0].convertible_type = 'NOTE';
      Object.assign(d.convertibles[0], { interest_rate: '0.05' });
    });
    expect(problems).toEqual([
      {
        collection: 'convertibles',
        index: 0,
        fieldPath: 'maturity_date',
        reason: 'a note needs a maturity date (an AUTOMATIC_ON_DATE trigger)',
      },
    ]);
    const note = checkDraft(
      draftOf((d) =>
        Object.assign(d.convertibles[0], {
          convertible_type: 'NOTE',
          interest_rate: '0.05',
          maturity_date: '2026-06-01',
        }),
      ),
      options,
    );
    const holding = [...note.plan!.state.holdings.values()].find(
      (h) => h.type === 'convertible_note',
    )!;
    expect(holding.terms).toMatchObject({
      principal: '250000',
      interestRate: '5',
      maturityDate: '2026-06-01',
    });
  });

  it('warns that a CONVERTIBLE_SECURITY is not built', () => {
    const check = checkDraft(
      draftOf((d) => (d.convertibles[0].convertible_type = 'CONVERTIBLE_SECURITY')),
      options,
    );
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([
      expect.objectContaining({
        collection: 'convertibles',
        index: 0,
        fieldPath: 'convertible_type',
      }),
    ]);
  });

  it('refuses fractional shares of a corporation, not of an LLC', () => {
    const change = (d: Input) => (d.shareholdings[0].quantity = '100.5');
    expect(problemsOf(change)).toEqual([
      expect.objectContaining({ collection: 'shareholdings', index: 0, fieldPath: 'quantity' }),
    ]);
    expect(problemsOf(change, { fractional: true })).toEqual([]);
  });
});

describe('draftTotals and labels', () => {
  it('adds up the draft', () => {
    expect(
      draftTotals(
        draftOf((d) =>
          d.convertibles.push({ ...d.convertibles[0], id: 'x', investment_amount: '0.5' }),
        ),
      ),
    ).toEqual({
      counts: {
        people: 5,
        shareClasses: 2,
        vestingSchedules: 1,
        optionPlans: 1,
        optionPools: 2,
        shareholdings: 3,
        optionGrants: 1,
        convertibles: 2,
      },
      sharesAuthorized: '12000000',
      sharesIssued: '9500000',
      sharesReserved: '1500000',
      optionsGranted: '100000',
      investment: '250000.5',
    });
  });

  it('labels items for a person to read', () => {
    const draft = draftOf();
    expect(labelOf(draft, 'shareholdings', 0)).toBe('Alice Smith: 4,000,000 Common');
    expect(labelOf(draft, 'people', 0)).toBe('Alice Smith (CEO)');
    expect(labelOf(draft, 'optionPools', 1)).toBe(
      'Advisors (2024 Equity Incentive Plan): 500,000 reserved',
    );
    expect(labelOf(draft, 'optionGrants', 0)).toBe(
      'Carol White: options on 100,000 shares at 0.1 USD',
    );
    expect(labelOf(draft, 'convertibles', 0)).toBe('Dan Angel: SAFE of 250,000 USD');
    expect(labelOf(draft, 'vestingSchedules', 0)).toBe(
      '4 years monthly, 1-year cliff: 48 periods of month, 12 at the cliff',
    );
    expect(labelOf(draft, 'organization', 0)).toBe('Acme Robotics');
  });
});
