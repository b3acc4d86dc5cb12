import { getOcfValidator, derivedId, uuidV5, type OcfItem, numeric } from '../../../libs/ocf';
import { vestingTerms, valuation, stockClass, firstCommonClass } from './ocf-objects';
import { Amendment, LogRow, OcfTransactionMapper } from './ocf-transactions';

const validator = getOcfValidator();

/** Every item valid against its object schema, and admitted by the TransactionsFile. */
function expectValid(items: OcfItem[]) {
  const file = validator.validateFile({ file_type: 'OCF_TRANSACTIONS_FILE', items });
  expect(file.errors).toEqual([]);
}

let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const row = (
  type: LogRow['type'],
  effectiveDate: string,
  payload: object,
  extra: Partial<LogRow> = {},
): LogRow => ({
  id: id(),
  type,
  effectiveDate,
  payload: payload as Record<string, unknown>,
  made: null,
  source: null,
  ...extra,
});

const CLASS = '10000000-0000-4000-8000-000000000001';
const ALICE = '20000000-0000-4000-8000-000000000001';
const BOB = '20000000-0000-4000-8000-000000000002';
const SH = '30000000-0000-4000-8000-000000000001';

const classCreated = () =>
  row('STOCK_CLASS_CREATED', '2024-06-01', {
    security: {
      id: CLASS,
      name: 'Common',
      classType: 'common',
      idPrefix: 'CS-',
      authorizedShares: '1000000',
      parValue: null,
      originalIssuePrice: null,
      currency: 'EUR',
      seniority: 1,
      liquidationPreferenceMultiple: null,
      participating: false,
      participationCapMultiple: null,
      conversionRatio: '1',
      votesPerShare: '1',
      boardApprovalDate: null,
    },
  });

const facts = {
  memberId: ALICE,
  securityId: CLASS,
  pricePerShare: '0.1',
  legendIds: [],
  consideration: null,
  issueDate: '2020-01-01',
};

function issuance(quantity = '1000') {
  return row(
    'TX_STOCK_ISSUANCE',
    '2020-01-01',
    {
      shareholdingId: SH,
      securityId: CLASS,
      memberId: ALICE,
      quantity,
      pricePerShare: '0.1',
      issueDate: '2020-01-01',
      legendIds: [],
      consideration: null,
    },
    { made: { ...facts, certificateNumber: 'CS-1', issuedQuantity: quantity } },
  );
}

function transfer(quantity: string, remainder: string, date = '2021-01-01') {
  const destination = id();
  return row(
    'TX_STOCK_TRANSFER',
    date,
    {
      sourceId: SH,
      destinationId: destination,
      toMemberId: BOB,
      quantity,
      date,
      pricePerShare: null,
    },
    {
      made: {
        ...facts,
        memberId: BOB,
        certificateNumber: 'CS-9',
        issuedQuantity: quantity,
        issueDate: date,
      },
      source: { ...facts, certificateNumber: 'CS-1', remainder },
    },
  );
}

describe('ids', () => {
  it('UUID v5 as RFC 9562 computes it (the DNS namespace example)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
    expect(derivedId(SH, 'balance')).toBe(derivedId(SH, 'balance'));
    expect(derivedId(SH, 'balance')).not.toBe(derivedId(SH, 'balance-issuance'));
  });
});

describe('OcfTransactionMapper', () => {
  it('stock issuances and authorized-share changes; a missing price is 0 with a comment', () => {
    const m = new OcfTransactionMapper(undefined, 'USD');
    expect(m.map(classCreated())).toEqual([]);
    const noPrice = issuance();
    noPrice.made!.pricePerShare = null;
    const [item] = m.map(noPrice);
    expect(item).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      id: noPrice.id,
      security_id: SH,
      custom_id: 'CS-1',
      share_price: { amount: '0', currency: 'EUR' },
      comments: ['ledgerline:pricePerShare=null'],
    });
    const adjusted = m.map(
      row('TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT', '2021-01-01', {
        securityId: CLASS,
        previousSharesAuthorized: '1000000',
        newSharesAuthorized: '2000000',
        reason: 'Charter amendment',
      }),
    );
    expect(adjusted[0]).toMatchObject({ stock_class_id: CLASS, new_shares_authorized: '2000000' });
    expect(adjusted[0].comments).toContain('ledgerline:reason="Charter amendment"');
    expect(m.initialAuthorized.get(CLASS)).toBe('1000000');
    expect(m.state.securities.get(CLASS)!.authorized.toString()).toBe('2000000');
    expectValid([item, ...adjusted]);
  });

  it('a partial transfer issues a balance; later entries about the holding name the balance', () => {
    const m = new OcfTransactionMapper(undefined, 'USD');
    m.map(classCreated());
    m.map(issuance());
    const first = transfer('100', '900');
    const second = transfer('300', '600', '2021-02-01');
    const a = m.map(first);
    const b = m.map(second);
    expect(a.map((i) => i.object_type)).toEqual([
      'TX_STOCK_TRANSFER',
      'TX_STOCK_ISSUANCE',
      'TX_STOCK_ISSUANCE',
    ]);
    expect(a[0]).toMatchObject({
      security_id: SH,
      balance_security_id: derivedId(first.id, 'balance'),
    });
    expect(a[2]).toMatchObject({
      security_id: derivedId(first.id, 'balance'),
      quantity: '900',
      stakeholder_id: ALICE,
      custom_id: 'CS-1',
    });
    expect(b[0]).toMatchObject({
      security_id: derivedId(first.id, 'balance'),
      balance_security_id: derivedId(second.id, 'balance'),
    });
    expect(b[2]).toMatchObject({ quantity: '600' });
    const void_ = row('TX_STOCK_CANCELLATION', '2022-01-01', {
      shareholdingId: SH,
      quantity: '600',
      reason: '',
    });
    expect(m.map(void_)[0]).toMatchObject({
      security_id: derivedId(second.id, 'balance'),
      reason_text: 'Voided',
      quantity: '600',
    });
    // A transfer of everything left: no balance.
    const all = m.map(transfer('600', '0', '2021-03-01'));
    expect(all).toHaveLength(2);
    expect(all[0]).not.toHaveProperty('balance_security_id');
    expectValid([...a, ...b, ...all]);
  });

  it('warrants: issuance with its exercise trigger; exercise through it, with the issued shares', () => {
    const m = new OcfTransactionMapper(undefined, 'USD');
    m.map(classCreated());
    const warrant = id();
    const issued = m.map(
      row('TX_WARRANT_ISSUANCE', '2022-01-01', {
        holding: {
          id: warrant,
          memberId: BOB,
          type: 'warrant',
          planId: null,
          poolId: null,
          securityId: CLASS,
          vestingScheduleId: null,
          terms: {
            quantity: '500',
            exercisePrice: '2',
            grantDate: '2022-01-01',
            expirationDate: null,
          },
        },
      }),
    );
    const shares = id();
    const exercise = row(
      'TX_WARRANT_EXERCISE',
      '2023-01-01',
      {
        holdingId: warrant,
        requestId: null,
        quantity: '200',
        date: '2023-01-01',
        paymentMethod: 'wire',
        shareholdingId: shares,
        legendIds: [],
      },
      {
        made: {
          ...facts,
          memberId: BOB,
          certificateNumber: 'CS-2',
          issuedQuantity: '200',
          issueDate: '2023-01-01',
        },
      },
    );
    const exercised = m.map(exercise);
    const trigger = (issued[0].exercise_triggers as { trigger_id: string }[])[0].trigger_id;
    expect(exercised[0]).toMatchObject({
      object_type: 'TX_WARRANT_EXERCISE',
      security_id: warrant,
      trigger_id: trigger,
      resulting_security_ids: [shares],
    });
    expect(exercised[0].comments).toEqual([
      'ledgerline:paymentMethod="wire"',
      'ledgerline:quantity="200"',
    ]);
    expect(exercised[1]).toMatchObject({
      object_type: 'TX_STOCK_ISSUANCE',
      id: derivedId(exercise.id, 'resulting-issuance'),
      stakeholder_id: BOB,
      share_price: { amount: '2', currency: 'EUR' },
      quantity: '200',
      custom_id: 'CS-2',
    });
    expectValid([...issued, ...exercised]);
  });

  it('notes: a partial repayment goes to the manifest’s comments, a full one cancels the note', () => {
    const m = new OcfTransactionMapper(undefined, 'USD');
    const note = id();
    const issued = m.map(
      row('TX_CONVERTIBLE_ISSUANCE', '2021-01-01', {
        holding: {
          id: note,
          memberId: BOB,
          type: 'convertible_note',
          planId: null,
          poolId: null,
          securityId: null,
          vestingScheduleId: null,
          terms: {
            principal: '1000',
            currency: 'USD',
            interestRate: '0',
            interestType: 'simple',
            dayCount: 'actual/365',
            issueDate: '2021-01-01',
            maturityDate: '2022-01-01',
          },
        },
      }),
    );
    const partial = row('TX_CONVERTIBLE_REPAYMENT', '2021-06-01', {
      holdingId: note,
      amount: '400',
      date: '2021-06-01',
    });
    expect(m.map(partial)).toEqual([]);
    expect(m.manifestComments).toHaveLength(1);
    expect(m.manifestComments[0]).toContain(partial.id);
    const full = m.map(
      row('TX_CONVERTIBLE_REPAYMENT', '2021-07-01', {
        holdingId: note,
        amount: '600',
        date: '2021-07-01',
      }),
    );
    expect(full).toEqual([
      expect.objectContaining({
        object_type: 'TX_CONVERTIBLE_CANCELLATION',
        security_id: note,
        amount: { amount: '600', currency: 'USD' },
        reason_text: 'Repaid in full',
      }),
    ]);
    expectValid([...issued, ...full]);
  });

  it('folds corrections into the issuance and keeps them in its comments', () => {
    const option = id();
    const amendment: Amendment = {
      id: id(),
      type: 'HOLDING_AMENDED',
      effectiveDate: '2024-01-01',
      holdingId: option,
      changes: { terms: { exercisePrice: '0.75' } },
    };
    const m = new OcfTransactionMapper(undefined, 'USD', [amendment]);
    m.map(classCreated());
    const [item] = m.map(
      row('TX_EQUITY_COMPENSATION_ISSUANCE', '2020-01-01', {
        holding: {
          id: option,
          memberId: ALICE,
          type: 'sar',
          planId: null,
          poolId: null,
          securityId: CLASS,
          vestingScheduleId: null,
          terms: {
            quantity: '100',
            exercisePrice: '0.5',
            grantDate: '2020-01-01',
            expirationDate: null,
          },
        },
      }),
    );
    expect(item).toMatchObject({
      compensation_type: 'SSAR',
      base_price: { amount: '0.75', currency: 'EUR' },
    });
    expect(item.comments).toContain('ledgerline:holdingType="sar"');
    expect(
      (item.comments as string[]).some(
        (c) => c.startsWith('ledgerline:amendment=') && c.includes(amendment.id),
      ),
    ).toBe(true);
    // As of a date before the correction, the grant as it was.
    const before = new OcfTransactionMapper('2023-12-31', 'USD', [amendment]);
    before.map(classCreated());
    expect(
      before.map(
        row('TX_EQUITY_COMPENSATION_ISSUANCE', '2020-01-01', {
          holding: {
            id: option,
            memberId: ALICE,
            type: 'sar',
            planId: null,
            poolId: null,
            securityId: CLASS,
            vestingScheduleId: null,
            terms: { quantity: '100', exercisePrice: '0.5' },
          },
        }),
      )[0],
    ).toMatchObject({ base_price: { amount: '0.5', currency: 'EUR' } });
    expectValid([item]);
  });

  it('asOf: later entries are left out, definitions recorded later still count; issuances by their corrected date', () => {
    const m = new OcfTransactionMapper('2020-12-31', 'USD');
    expect(m.map(classCreated())).toEqual([]); // recorded 2024, holds for all of history
    expect(m.state.securities.has(CLASS)).toBe(true);
    const moved = issuance();
    moved.made!.issueDate = '2021-02-01';
    expect(m.map(moved)).toEqual([]);
    expect(m.map(issuance())).toHaveLength(1);
    expect(m.map(transfer('100', '900'))).toEqual([]);
  });

  it('capital changes and exercise requests have no OCF transaction: kept whole for the manifest', () => {
    const m = new OcfTransactionMapper(undefined, 'USD');
    const entry = row('CAPITAL_CHANGE_RECORDED', '2024-01-01', {
      capitalChange: { id: 'x', amount: '5' },
    });
    expect(m.map(entry)).toEqual([]);
    expect(JSON.parse(m.manifestComments[0].slice('ledgerline:transaction='.length))).toEqual({
      id: entry.id,
      type: 'CAPITAL_CHANGE_RECORDED',
      effectiveDate: '2024-01-01',
      payload: { capitalChange: { id: 'x', amount: '5' } },
    });
  });
});

describe('objects', () => {
  const schedule = {
    id: 'vt-1',
    name: 'Yearly',
    planId: null,
    version: 1,
    previousVersionId: null,
    totalPeriods: 4,
    periodLength: 1,
    periodType: 'years' as const,
    cliffPeriods: 0,
    allocationType: 'CUMULATIVE_ROUNDING' as const,
    vestingDayOfMonth: null,
    acceleration: { trigger: 'double' as const, percent: '100' },
    supersededById: null,
    deleted: false,
  };

  it('vesting terms: years as months, no cliff, days, a cliff of the whole schedule', () => {
    const yearly = vestingTerms(schedule);
    expect(yearly.vesting_conditions).toEqual([
      expect.objectContaining({ id: 'vesting-start', next_condition_ids: ['instalments'] }),
      expect.objectContaining({
        id: 'instalments',
        portion: { numerator: '1', denominator: '4' },
        trigger: expect.objectContaining({
          period: expect.objectContaining({ length: 12, type: 'MONTHS', occurrences: 4 }),
        }),
      }),
    ]);
    const daily = vestingTerms({
      ...schedule,
      periodType: 'days',
      periodLength: 30,
      cliffPeriods: 2,
      acceleration: null,
    });
    const allAtCliff = vestingTerms({ ...schedule, periodType: 'months', cliffPeriods: 4 });
    expect((allAtCliff.vesting_conditions as unknown[]).length).toBe(2);
    for (const v of [yearly, daily, allAtCliff]) {
      expect(validator.validateObject('VESTING_TERMS', v).errors).toEqual([]);
    }
  });

  it('valuations OCF cannot hold are null; a preferred class converts into the first common class', () => {
    const base = {
      id: 'v',
      pricePerShare: '1',
      effectiveDate: '2024-01-01',
      provider: null,
      reportFileId: null,
    };
    expect(valuation({ ...base, type: 'preferred_round', securityId: CLASS }, 'USD')).toBeNull();
    expect(valuation({ ...base, type: '409A', securityId: null }, 'USD')).toBeNull();
    expect(
      validator.validateObject(
        'VALUATION',
        valuation({ ...base, type: '409a', securityId: CLASS }, 'USD'),
      ).errors,
    ).toEqual([]);
    const m = new OcfTransactionMapper(undefined, 'USD');
    m.map(classCreated());
    const common = m.state.securities.get(CLASS)!;
    const preferred = {
      ...common,
      id: 'p',
      classType: 'preferred' as const,
      originalIssuePrice: '2',
      conversionRatio: '1.5',
    };
    expect(firstCommonClass([preferred, common])).toBe(CLASS);
    const item = stockClass(preferred, '100', CLASS);
    expect(item.conversion_rights).toEqual([
      expect.objectContaining({
        converts_to_stock_class_id: CLASS,
        conversion_mechanism: expect.objectContaining({
          ratio: { numerator: '1.5', denominator: '1' },
        }),
      }),
    ]);
    expect(validator.validateObject('STOCK_CLASS', item).errors).toEqual([]);
  });

  it('a decimal beyond OCF’s 10 places is rounded, its exact value kept in the comments', () => {
    const comments: string[] = [];
    expect(numeric('1.123456789012', comments, 'quantity')).toBe('1.123456789');
    expect(comments).toEqual(['ledgerline:quantity="1.123456789012"']);
    expect(numeric('12.5')).toBe('12.5');
  });
});
