import { amount, arr, obj, str, type Located } from '../../../../libs/ocf';
import type { HoldingTerms, HoldingType } from '../incentive-types';
import { addHolding, holdingIssuanceExport } from './holding-issuance.ocf';
import { type OcfImportContext, type OcfMapping, ISSUANCE_FIELDS } from './ocf-mapping';

/** OCF `compensation_type` → the ledger's holding type (SARs of either kind are SARs). */
const COMPENSATION: Record<string, HoldingType> = {
  OPTION_ISO: 'option_iso',
  OPTION_NSO: 'option_nso',
  OPTION: 'option',
  RSU: 'rsu',
  CSAR: 'sar',
  SSAR: 'sar',
};

function windows(l: Located): HoldingTerms['terminationExerciseWindows'] {
  return arr(l.object.termination_exercise_windows).map((w) => {
    const x = obj(w)!;
    return {
      reason: String(x.reason),
      period: Number(x.period),
      periodType: String(x.period_type).toLowerCase() as never,
    };
  });
}

function vestingStartOf(ctx: OcfImportContext, security: string): string | null {
  const start = ctx.vestingStarts.get(security);
  return start ? String(start.object.date) : null;
}

/** A grant of a plan (equity compensation outside one has no counterpart). */
export const equityCompensationIssuanceOcf: OcfMapping<'TX_EQUITY_COMPENSATION_ISSUANCE'> = {
  export: holdingIssuanceExport,
  import: {
    objects: {
      TX_EQUITY_COMPENSATION_ISSUANCE: {
        keeps: [
          ...ISSUANCE_FIELDS,
          'stock_plan_id',
          'compensation_type',
          'quantity',
          'exercise_price',
          'vesting_terms_id',
          'expiration_date',
          'termination_exercise_windows',
          'early_exercisable',
        ],
        read(l, ctx) {
          const o = l.object;
          const planRef = str(o.stock_plan_id);
          if (!planRef) {
            ctx.warn(
              l,
              'stock_plan_id',
              'equity compensation outside a stock plan has no counterpart',
            );
            return 'unsupported';
          }
          const plan = ctx.plans.get(planRef)!;
          const quantity = ctx.quantity(l, 'quantity', o.quantity);
          if (!quantity) return false;
          const type =
            (ctx.note<HoldingType>(o, 'holdingType') as HoldingType | undefined) ??
            COMPENSATION[String(o.compensation_type)];
          const notedPool = ctx.note<string>(o, 'poolId');
          const planClass = ctx.state.plans.get(plan.planId)!.securityId;
          if (!o.stock_class_id || ctx.classes.get(String(o.stock_class_id)) === planClass) {
            ctx.keep(o, 'stock_class_id');
          }
          const grantType = { OPTION_ISO: 'ISO', OPTION_NSO: 'NSO' }[String(o.compensation_type)];
          if (o.option_grant_type === grantType) ctx.keep(o, 'option_grant_type');
          if (o.compensation_type === 'CSAR' || o.compensation_type === 'SSAR') {
            ctx.warn(l, 'compensation_type', `${String(o.compensation_type)} is recorded as a SAR`);
          }
          const termsRef = str(o.vesting_terms_id);
          const scheduleId = termsRef ? (ctx.schedules.get(termsRef) ?? null) : null;
          if (termsRef && !scheduleId) {
            ctx.warn(
              l,
              'vesting_terms_id',
              `the vesting terms ${termsRef} were not imported: the grant has no schedule`,
            );
          }
          const security = String(o.security_id);
          const grantDate = String(o.date);
          return addHolding(ctx, l, 'TX_EQUITY_COMPENSATION_ISSUANCE', {
            id: ctx.newId(),
            memberId: ctx.members.get(String(o.stakeholder_id))!.memberId,
            type,
            planId: plan.planId,
            poolId: (notedPool && ctx.pools.get(notedPool)) || plan.poolId,
            securityId: ctx.state.plans.get(plan.planId)!.securityId,
            vestingScheduleId: scheduleId,
            terms: {
              quantity,
              exercisePrice: amount(o.exercise_price),
              grantDate,
              expirationDate: str(o.expiration_date) ?? null,
              vestingStartDate:
                ctx.note<string>(o, 'vestingStartDate') ??
                vestingStartOf(ctx, security) ??
                grantDate,
              earlyExercisable: o.early_exercisable === true,
              terminationExerciseWindows: windows(l),
            },
          });
        },
      },
    },
  },
};
