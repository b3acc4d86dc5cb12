import { toDecimalString } from '../../../libs/cap-math';
import type { LedgerState } from '../../cap-table';
import type { MemberListing, OrganizationFacts } from '../../organizations';
import {
  VESTING_START_CONDITION,
  compact,
  ledgerComment,
  monetary,
  numeric,
  OcfItem,
  withComments,
} from '../../../libs/ocf';

/**
 * The objects of an OCF package that are not transactions (issuer, stakeholders, classes, legends,
 * plans, vesting terms, valuations), from our records. What OCF has no field for goes into the
 * object's `comments` (see docs/ocf.md).
 */

type ValueOf<M> = M extends Map<string, infer V> ? V : never;
export type ClassState = ValueOf<LedgerState['securities']>;
export type LegendState = ValueOf<LedgerState['legends']>;
export type PlanState = ValueOf<LedgerState['plans']>;
export type PoolState = ValueOf<LedgerState['pools']>;
export type ScheduleState = ValueOf<LedgerState['schedules']>;
export type ValuationState = ValueOf<LedgerState['valuations']>;

/** The ISSUER of the manifest. OCF requires a formation date and country, which we do not record. */
export function issuer(o: OrganizationFacts): OcfItem {
  const comments = [
    ledgerComment(
      'formationDate',
      'not recorded; formation_date is the day the organization was created in Ledgerline',
    ),
    ledgerComment('organizationType', o.type),
    ledgerComment('currency', o.currency),
  ];
  if (!o.country) {
    comments.push(ledgerComment('country', 'not recorded; country_of_formation defaults to US'));
  }
  return withComments(
    compact({
      object_type: 'ISSUER',
      id: o.id,
      legal_name: o.legalName ?? o.name,
      dba: o.legalName && o.legalName !== o.name ? o.name : undefined,
      formation_date: o.created.toISOString().slice(0, 10),
      country_of_formation: o.country ?? 'US',
    }),
    comments,
  ) as OcfItem;
}

/** A member who holds or held something, as a STAKEHOLDER (an individual: we do not record which). */
export function stakeholder(m: MemberListing): OcfItem {
  const comments: string[] = [];
  if (m.title) comments.push(ledgerComment('title', m.title));
  if (m.status !== 'active') comments.push(ledgerComment('memberStatus', m.status));
  return withComments(
    compact({
      object_type: 'STAKEHOLDER',
      id: m.id,
      name: { legal_name: m.name },
      stakeholder_type: 'INDIVIDUAL',
      contact_info: m.email
        ? { emails: [{ email_type: 'OTHER', email_address: m.email }] }
        : undefined,
    }),
    comments,
  ) as OcfItem;
}

/**
 * A share class as a STOCK_CLASS: `initial_shares_authorized` is what it was created with (its
 * changes are TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT transactions). A preferred class
 * converts into the first common class at its conversion ratio.
 */
export function stockClass(
  s: ClassState,
  initialAuthorized: string,
  commonClassId: string | undefined,
): OcfItem {
  const comments = [
    ledgerComment('currency', s.currency),
    ledgerComment('participating', s.participating),
    ledgerComment('conversionRatio', s.conversionRatio),
  ];
  if (s.deleted) comments.push(ledgerComment('deleted', true));
  const converts =
    s.classType === 'preferred' && commonClassId !== undefined && s.originalIssuePrice !== null;
  return withComments(
    compact({
      object_type: 'STOCK_CLASS',
      id: s.id,
      name: s.name,
      class_type: s.classType === 'preferred' ? 'PREFERRED' : 'COMMON',
      default_id_prefix: s.idPrefix,
      initial_shares_authorized: numeric(initialAuthorized),
      board_approval_date: s.boardApprovalDate ?? undefined,
      votes_per_share: numeric(s.votesPerShare),
      par_value: s.parValue !== null ? monetary(s.parValue, s.currency) : undefined,
      price_per_share:
        s.originalIssuePrice !== null ? monetary(s.originalIssuePrice, s.currency) : undefined,
      seniority: String(s.seniority),
      conversion_rights: converts
        ? [
            {
              type: 'STOCK_CLASS_CONVERSION_RIGHT',
              conversion_mechanism: {
                type: 'RATIO_CONVERSION',
                conversion_price: monetary(s.originalIssuePrice!, s.currency),
                ratio: { numerator: numeric(s.conversionRatio), denominator: '1' },
                rounding_type: 'NORMAL',
              },
              converts_to_stock_class_id: commonClassId,
            },
          ]
        : undefined,
      liquidation_preference_multiple:
        s.liquidationPreferenceMultiple !== null
          ? numeric(s.liquidationPreferenceMultiple)
          : undefined,
      participation_cap_multiple:
        s.participationCapMultiple !== null ? numeric(s.participationCapMultiple) : undefined,
    }),
    comments,
  ) as OcfItem;
}

export function legendTemplate(l: LegendState): OcfItem {
  const comments = [ledgerComment('isDefault', l.isDefault)];
  if (l.deleted) comments.push(ledgerComment('deleted', true));
  return withComments(
    { object_type: 'STOCK_LEGEND_TEMPLATE', id: l.id, name: l.name, text: l.text },
    comments,
  );
}

/** A plan as a STOCK_PLAN; OCF has no pools: they are comments (`ledgerline:pool=`). */
export function stockPlan(p: PlanState, initialReserved: string, pools: PoolState[]): OcfItem {
  const comments = pools.map((po) =>
    ledgerComment('pool', {
      id: po.id,
      name: po.name,
      sharesReserved: toDecimalString(po.sharesReserved),
      ...(po.deleted ? { deleted: true } : {}),
    }),
  );
  if (p.deleted) comments.push(ledgerComment('deleted', true));
  return withComments(
    compact({
      object_type: 'STOCK_PLAN',
      id: p.id,
      plan_name: p.name,
      board_approval_date: p.boardApprovalDate ?? undefined,
      stockholder_approval_date: p.stockholderApprovalDate ?? undefined,
      initial_shares_reserved: numeric(initialReserved),
      default_cancellation_behavior:
        p.defaultCancellationBehavior === 'retire' ? 'RETIRE' : 'RETURN_TO_POOL',
      stock_class_ids: [p.securityId],
    }),
    comments,
  ) as OcfItem;
}

const PERIOD_WORDS = { days: 'day', months: 'month', years: 'year' } as const;

/**
 * A vesting schedule as VESTING_TERMS: a start condition (the grant's TX_VESTING_START), then a
 * cliff (the first `cliffPeriods` periods at once) and equal instalments for the rest. Years are
 * written as months (OCF periods are days or months).
 */
export function vestingTerms(v: ScheduleState): OcfItem {
  const months = v.periodType === 'years' ? 12 : 1;
  const length = v.periodLength * months;
  const dayOfMonth = v.vestingDayOfMonth ?? 'VESTING_START_DAY_OR_LAST_DAY_OF_MONTH';
  const period = (periodLength: number, occurrences: number) =>
    v.periodType === 'days'
      ? { length: periodLength, type: 'DAYS', occurrences }
      : { length: periodLength, type: 'MONTHS', occurrences, day_of_month: dayOfMonth };
  const total = String(v.totalPeriods);
  const conditions: Record<string, unknown>[] = [
    {
      id: VESTING_START_CONDITION,
      quantity: '0',
      trigger: { type: 'VESTING_START_DATE' },
      next_condition_ids: [] as string[],
    },
  ];
  const link = (id: string) => (conditions.at(-1)!.next_condition_ids as string[]).push(id);
  let previous = VESTING_START_CONDITION;
  if (v.cliffPeriods > 0) {
    link('cliff');
    conditions.push({
      id: 'cliff',
      description: `${v.cliffPeriods} of ${v.totalPeriods} periods vest at the cliff`,
      portion: { numerator: String(v.cliffPeriods), denominator: total },
      trigger: {
        type: 'VESTING_SCHEDULE_RELATIVE',
        period: period(length * v.cliffPeriods, 1),
        relative_to_condition_id: previous,
      },
      next_condition_ids: [],
    });
    previous = 'cliff';
  }
  const rest = v.totalPeriods - v.cliffPeriods;
  if (rest > 0) {
    link('instalments');
    conditions.push({
      id: 'instalments',
      description: `1/${v.totalPeriods} each period thereafter`,
      portion: { numerator: '1', denominator: total },
      trigger: {
        type: 'VESTING_SCHEDULE_RELATIVE',
        period: period(length, rest),
        relative_to_condition_id: previous,
      },
      next_condition_ids: [],
    });
  }
  const unit = PERIOD_WORDS[v.periodType];
  const comments = [
    ledgerComment('schedule', {
      totalPeriods: v.totalPeriods,
      periodLength: v.periodLength,
      periodType: v.periodType,
      cliffPeriods: v.cliffPeriods,
      vestingDayOfMonth: v.vestingDayOfMonth,
    }),
    ledgerComment('version', v.version),
  ];
  if (v.previousVersionId) comments.push(ledgerComment('previousVersionId', v.previousVersionId));
  if (v.supersededById) comments.push(ledgerComment('supersededById', v.supersededById));
  if (v.planId) comments.push(ledgerComment('planId', v.planId));
  if (v.acceleration) comments.push(ledgerComment('acceleration', v.acceleration));
  if (v.deleted) comments.push(ledgerComment('deleted', true));
  return withComments(
    {
      object_type: 'VESTING_TERMS',
      id: v.id,
      name: v.name,
      description:
        `${v.totalPeriods} periods of ${v.periodLength} ${unit}${v.periodLength === 1 ? '' : 's'}` +
        (v.cliffPeriods ? `, a cliff of ${v.cliffPeriods} periods` : ', no cliff') +
        (v.acceleration
          ? `, ${v.acceleration.trigger}-trigger acceleration of ${v.acceleration.percent}%`
          : ''),
      allocation_type: v.allocationType,
      vesting_conditions: conditions,
    },
    comments,
  );
}

/**
 * A valuation as VALUATION when OCF can hold it: a 409A valuation of one class. Anything else
 * (another kind, or of no class) has no OCF object: null (the manifest's comments keep it).
 */
export function valuation(v: ValuationState, currency: string): OcfItem | null {
  if (v.type.toUpperCase() !== '409A' || !v.securityId) return null;
  const comments: string[] = [];
  if (v.reportFileId) comments.push(ledgerComment('reportFileId', v.reportFileId));
  return withComments(
    compact({
      object_type: 'VALUATION',
      id: v.id,
      provider: v.provider ?? undefined,
      price_per_share: monetary(v.pricePerShare, currency),
      effective_date: v.effectiveDate,
      stock_class_id: v.securityId,
      valuation_type: '409A',
    }),
    comments,
  ) as OcfItem;
}

/** The first common class (by name), into which preferred classes convert. */
export function firstCommonClass(classes: Iterable<ClassState>): string | undefined {
  return [...classes]
    .filter((s) => s.classType === 'common' && !s.deleted)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0]?.id;
}
