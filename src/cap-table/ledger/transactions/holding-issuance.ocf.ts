import {
  compact,
  conversionTriggerId,
  derivedId,
  exerciseTriggerId,
  ledgerComment,
  monetary,
  numeric,
  percentage,
  VESTING_START_CONDITION,
  withComments,
  type Located,
  type OcfItem,
} from '../../../../libs/ocf';
import type { HoldingRecord } from '../incentive-types';
import type { LedgerLogEntry } from '../ledger-log-entry';
import type { OcfExportContext, OcfExportMapping, OcfImportContext } from './ocf-mapping';

/**
 * The issuance of a grant, warrant, SAFE or note (a `/v1/holding` record) as OCF: the
 * TX_EQUITY_COMPENSATION_ISSUANCE (and its TX_VESTING_START), TX_WARRANT_ISSUANCE or
 * TX_CONVERTIBLE_ISSUANCE, with the terms OCF has no field for in `comments` (docs/ocf.md).
 */

const COMPENSATION_TYPES: Record<string, string> = {
  option_iso: 'OPTION_ISO',
  option_nso: 'OPTION_NSO',
  option: 'OPTION',
  rsu: 'RSU',
  sar: 'SSAR',
};

type HoldingIssuanceType =
  'TX_EQUITY_COMPENSATION_ISSUANCE' | 'TX_WARRANT_ISSUANCE' | 'TX_CONVERTIBLE_ISSUANCE';

/** The export of the three: the holding with its corrections folded in, which the comments list. */
export const holdingIssuanceExport: OcfExportMapping<HoldingIssuanceType> = {
  from: 'replayed',
  map(row, { holding: recorded }, ctx) {
    const h = ctx.amended(recorded);
    const comments = [ledgerComment('holdingType', h.type), ...ctx.amendmentComments(h.id)];
    return holdingIssuance(row, h, comments, ctx);
  },
};

/** Records the issuance of a holding the import read. */
export function addHolding(
  ctx: OcfImportContext,
  l: Located,
  type: HoldingIssuanceType,
  holding: HoldingRecord,
): boolean {
  const ok = ctx.record(l, {
    type,
    effectiveDate: String(l.object.date),
    payload: { holding },
  });
  if (ok) ctx.issued(l, String(l.object.security_id), { kind: 'holding', id: holding.id });
  return ok;
}

/** `h`: the holding as issued, its corrections folded in; `comments`: those so far. */
function holdingIssuance(
  row: LedgerLogEntry,
  h: HoldingRecord,
  comments: string[],
  ctx: OcfExportContext,
): OcfItem[] {
  const t = h.terms;
  const base = {
    id: row.id,
    date: row.effectiveDate,
    security_id: h.id,
    custom_id: h.id,
    stakeholder_id: h.memberId,
    security_law_exemptions: [],
  };
  if (h.poolId) comments.push(ledgerComment('poolId', h.poolId));
  if (row.type === 'TX_EQUITY_COMPENSATION_ISSUANCE') {
    const currency = ctx.currencyOf(h.securityId);
    const option = h.type.startsWith('option');
    const price = t.exercisePrice != null ? monetary(t.exercisePrice, currency) : undefined;
    if (t.vestingStartDate) comments.push(ledgerComment('vestingStartDate', t.vestingStartDate));
    const items: OcfItem[] = [
      withComments(
        compact({
          object_type: 'TX_EQUITY_COMPENSATION_ISSUANCE',
          ...base,
          stock_plan_id: h.planId ?? undefined,
          stock_class_id: h.securityId ?? undefined,
          compensation_type: COMPENSATION_TYPES[h.type],
          option_grant_type:
            h.type === 'option_iso' ? 'ISO' : h.type === 'option_nso' ? 'NSO' : undefined,
          quantity: numeric(t.quantity ?? '0'),
          exercise_price: option ? price : undefined,
          base_price: h.type === 'sar' ? price : undefined,
          early_exercisable: t.earlyExercisable,
          vesting_terms_id: h.vestingScheduleId ?? undefined,
          expiration_date: t.expirationDate ?? null,
          termination_exercise_windows: (t.terminationExerciseWindows ?? []).map((w) => ({
            reason: w.reason,
            period: w.period,
            period_type: w.periodType.toUpperCase(),
          })),
        }),
        comments,
      ) as OcfItem,
    ];
    // compact() drops a null expiration date; OCF requires the member (null = none).
    if (!t.expirationDate) items[0].expiration_date = null;
    if (h.vestingScheduleId) {
      items.push({
        object_type: 'TX_VESTING_START',
        id: derivedId(row.id, 'vesting-start'),
        date: t.vestingStartDate ?? t.grantDate ?? row.effectiveDate,
        security_id: h.id,
        vesting_condition_id: VESTING_START_CONDITION,
      });
    }
    return items;
  }
  if (row.type === 'TX_WARRANT_ISSUANCE') {
    const currency = ctx.currencyOf(h.securityId);
    comments.push(ledgerComment('purchasePrice', 'not recorded; purchase_price is 0'));
    return [
      withComments(
        compact({
          object_type: 'TX_WARRANT_ISSUANCE',
          ...base,
          quantity: numeric(t.quantity ?? '0'),
          quantity_source: 'INSTRUMENT_FIXED',
          exercise_price: t.exercisePrice != null ? monetary(t.exercisePrice, currency) : undefined,
          purchase_price: monetary('0', currency),
          exercise_triggers: [
            {
              trigger_id: exerciseTriggerId(h.id),
              nickname: 'Exercise at will',
              type: 'ELECTIVE_AT_WILL',
              conversion_right: {
                type: 'WARRANT_CONVERSION_RIGHT',
                conversion_mechanism: {
                  type: 'FIXED_AMOUNT_CONVERSION',
                  converts_to_quantity: numeric(t.quantity ?? '0'),
                },
                converts_to_stock_class_id: h.securityId ?? undefined,
              },
            },
          ],
          warrant_expiration_date: t.expirationDate ?? undefined,
          vesting_terms_id: h.vestingScheduleId ?? undefined,
        }),
        comments,
      ) as OcfItem,
    ];
  }
  // SAFE or convertible note.
  const currency = t.currency ?? ctx.currency;
  const safe = h.type === 'safe';
  const cap = t.valuationCap != null ? monetary(t.valuationCap, currency) : undefined;
  const discount = t.discount != null ? percentage(t.discount) : undefined;
  if (t.maturityDate) comments.push(ledgerComment('maturityDate', t.maturityDate));
  if (t.proRata !== undefined) comments.push(ledgerComment('proRata', t.proRata));
  if (t.interestRate !== undefined) comments.push(ledgerComment('interestRate', t.interestRate));
  const mechanism = safe
    ? compact({
        type: 'SAFE_CONVERSION',
        conversion_discount: discount,
        conversion_valuation_cap: cap,
        conversion_mfn: t.mfn ?? false,
        conversion_timing: t.safeType === 'pre_money' ? 'PRE_MONEY' : 'POST_MONEY',
      })
    : compact({
        type: 'CONVERTIBLE_NOTE_CONVERSION',
        interest_rates: [
          {
            rate: percentage(t.interestRate ?? '0'),
            accrual_start_date: t.issueDate ?? row.effectiveDate,
          },
        ],
        day_count_convention: t.dayCount === '30/360' ? '30_360' : 'ACTUAL_365',
        interest_payout: 'DEFERRED',
        interest_accrual_period: 'DAILY',
        compounding_type: t.interestType === 'compound' ? 'COMPOUNDING' : 'SIMPLE',
        conversion_discount: discount,
        conversion_valuation_cap: cap,
        conversion_mfn: t.mfn,
      });
  return [
    withComments(
      compact({
        object_type: 'TX_CONVERTIBLE_ISSUANCE',
        ...base,
        date: t.issueDate ?? row.effectiveDate,
        investment_amount: monetary((safe ? t.amount : t.principal) ?? '0', currency),
        convertible_type: safe ? 'SAFE' : 'NOTE',
        conversion_triggers: [
          {
            trigger_id: conversionTriggerId(h.id),
            nickname: 'Equity financing',
            type: 'AUTOMATIC_ON_CONDITION',
            trigger_condition: 'Converts in an equity financing of the issuer',
            conversion_right: {
              type: 'CONVERTIBLE_CONVERSION_RIGHT',
              conversion_mechanism: mechanism,
              converts_to_future_round: true,
            },
          },
        ],
        seniority: 1,
      }),
      comments,
    ) as OcfItem,
  ];
}
