import { randomUUID } from 'node:crypto';
import { emptyState } from './ledger-state';
import { assertPayload, MalformedEntryError } from './payload-check';
import { applyTransaction } from './reducer';
import type { LedgerTransaction } from './transaction-types';
import { TRANSACTION_TYPES } from './transactions';

describe('the payload check of the replay', () => {
  it('compiles every type’s schema, and refuses what is not an object of it', () => {
    for (const type of TRANSACTION_TYPES) {
      expect(() => assertPayload({ id: 'e1', type }, 'not an object')).toThrow(
        new MalformedEntryError(type, 'e1', '', 'expected object, not "not an object"'),
      );
    }
  });

  it('names the path of a nested field and the value found', () => {
    const holding = {
      id: randomUUID(),
      memberId: randomUUID(),
      type: 'option_iso',
      planId: null,
      poolId: null,
      securityId: null,
      vestingScheduleId: null,
      terms: { quantity: 1000 },
    };
    expect(() =>
      assertPayload({ id: 'e2', type: 'TX_EQUITY_COMPENSATION_ISSUANCE' }, { holding }),
    ).toThrow(
      'TX_EQUITY_COMPENSATION_ISSUANCE entry e2: its payload at /holding/terms/quantity is malformed: expected string, not 1000',
    );
    expect(() =>
      assertPayload(
        { id: 'e3', type: 'TX_EQUITY_COMPENSATION_ISSUANCE' },
        { holding: { ...holding, terms: { quantity: '1e3' } } },
      ),
    ).toThrow(/at \/holding\/terms\/quantity is malformed: expected string to match/);
  });

  it('checks the payload as the definition reads it today (after its upgrade)', () => {
    const state = emptyState();
    const securityId = randomUUID();
    const security = {
      id: securityId,
      name: 'Common',
      classType: 'common',
      idPrefix: 'CS-',
      authorizedShares: '1000',
      parValue: null,
      originalIssuePrice: null,
      currency: 'USD',
      seniority: 1,
      liquidationPreferenceMultiple: null,
      conversionRatio: '1',
      votesPerShare: '1',
      boardApprovalDate: null,
    };
    // Logged before `participating` and its cap existed: the upgrade says false and null, and the
    // check passes.
    applyTransaction(state, {
      id: randomUUID(),
      type: 'STOCK_CLASS_CREATED',
      effectiveDate: '2024-01-01',
      payload: { security },
    } as unknown as LedgerTransaction);
    expect(state.securities.get(securityId)?.participating).toBe(false);
    // What no upgrade mends is refused, lenient replay or not.
    expect(() =>
      applyTransaction(
        state,
        {
          id: 'e4',
          type: 'STOCK_CLASS_DELETED',
          effectiveDate: '2024-01-02',
          payload: {},
        } as unknown as LedgerTransaction,
        false,
      ),
    ).toThrow(
      'STOCK_CLASS_DELETED entry e4: its payload at /securityId is malformed: expected required property, not absent',
    );
  });
});
