import { notesOf } from '../../../../libs/ocf';
import { fullDraftInput } from './draft-fixture';
import { DRAFT_FILE, draftLocation, draftPackage, schemaProblems } from './draft-to-ocf';
import { validateDraft } from './draft-validation';
import type { OnboardingDraft } from './onboarding-draft.dto';

function draftOf(
  change: (d: ReturnType<typeof fullDraftInput>) => void = () => undefined,
): OnboardingDraft {
  const input = fullDraftInput();
  change(input);
  const result = validateDraft(input);
  if ('errors' in result) throw new Error(result.errors.join('\n'));
  return result.draft;
}

const today = '2025-01-02';

describe('draftPackage', () => {
  it('writes objects valid against their OCF 1.2 schemas, at the draft item they come from', () => {
    const pkg = draftPackage(draftOf(), { today });
    expect(schemaProblems(pkg)).toEqual([]);
    expect(pkg.stakeholders.map((l) => [l.path, l.object.id, l.object.stakeholder_type])).toEqual([
      ['/people/0', 'people:alice', 'INDIVIDUAL'],
      ['/people/1', 'people:bob', 'INDIVIDUAL'],
      ['/people/2', 'people:seed', 'INSTITUTION'],
      ['/people/3', 'people:carol', 'INDIVIDUAL'],
      ['/people/4', 'people:dan', 'INDIVIDUAL'],
    ]);
    expect(pkg.transactions.map((l) => [l.path, l.object.object_type])).toEqual([
      ['/shareholdings/0', 'TX_STOCK_ISSUANCE'],
      ['/shareholdings/1', 'TX_STOCK_ISSUANCE'],
      ['/shareholdings/2', 'TX_STOCK_ISSUANCE'],
      ['/optionGrants/0', 'TX_EQUITY_COMPENSATION_ISSUANCE'],
      ['/optionGrants/0', 'TX_VESTING_START'],
      ['/convertibles/0', 'TX_CONVERTIBLE_ISSUANCE'],
    ]);
    expect(new Set([...pkg.stakeholders, ...pkg.transactions].map((l) => l.file))).toEqual(
      new Set([DRAFT_FILE]),
    );
  });

  it('writes the plan’s pools as the export does, and is deterministic', () => {
    const draft = draftOf();
    const [plan] = draftPackage(draft, { today }).plans;
    expect(plan.object).toMatchObject({
      id: 'optionPlans:plan',
      plan_name: '2024 Equity Incentive Plan',
      initial_shares_reserved: '1500000',
      stock_class_ids: ['shareClasses:common'],
    });
    expect(notesOf(plan.object).get('pool')).toEqual([
      { id: 'optionPools:employees', name: 'Employees', sharesReserved: '1000000' },
      { id: 'optionPools:advisors', name: 'Advisors', sharesReserved: '500000' },
    ]);
    expect(draftPackage(draft, { today })).toEqual(draftPackage(draft, { today }));
  });

  it('dates what the draft leaves undated today, in the currency given', () => {
    const draft = draftOf((d) => {
      delete (d.shareholdings[0] as { date?: string }).date;
      delete (d.optionGrants[0] as { date?: string }).date;
      delete (d.optionGrants[0] as { vesting_start_date?: string }).vesting_start_date;
    });
    const pkg = draftPackage(draft, { today, currency: 'EUR' });
    const [issuance, grant, start] = [
      pkg.transactions[0],
      pkg.transactions[3],
      pkg.transactions[4],
    ];
    expect(issuance.object).toMatchObject({
      date: today,
      share_price: { amount: '0.00001', currency: 'EUR' },
    });
    expect(grant.object.date).toBe(today);
    expect(start.object).toMatchObject({ object_type: 'TX_VESTING_START', date: today });
  });

  it('leaves out the items the caller omits and those referring to them', () => {
    const pkg = draftPackage(draftOf(), { today, omit: (c, i) => c === 'people' && i === 3 });
    expect(pkg.stakeholders).toHaveLength(4);
    expect(pkg.transactions.map((l) => l.path)).not.toContain('/optionGrants/0');
  });

  it('reports schema failures at the item', () => {
    const pkg = draftPackage(draftOf(), { today });
    pkg.stockClasses[0].object.votes_per_share = 'one';
    expect(schemaProblems(pkg)).toEqual([
      {
        file: DRAFT_FILE,
        path: '/shareClasses/0/votes_per_share',
        reason: expect.stringMatching(
          /^not valid OCF \(STOCK_CLASS\/votes_per_share\): must match pattern/,
        ),
      },
    ]);
  });
});

describe('draftLocation', () => {
  it('maps an object’s path back to its list and index, with the OCF pointer inside it', () => {
    expect(draftLocation(DRAFT_FILE, '/shareholdings/3')).toEqual({
      collection: 'shareholdings',
      index: 3,
      ocfPath: [],
    });
    expect(draftLocation(DRAFT_FILE, '/people/0/name/legal_name')).toEqual({
      collection: 'people',
      index: 0,
      ocfPath: ['name', 'legal_name'],
    });
    expect(draftLocation(DRAFT_FILE, '')).toBeNull();
    expect(draftLocation(DRAFT_FILE, '/questions/0')).toBeNull();
    expect(draftLocation('Manifest.ocf.json', '/people/0')).toBeNull();
  });
});
