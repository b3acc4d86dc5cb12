import { amount, arr, canonical, obj, percent, str } from '../../../../libs/ocf';
import type { HoldingTerms } from '../incentive-types';
import { addHolding, holdingIssuanceExport } from './holding-issuance.ocf';
import { type OcfMapping, ISSUANCE_FIELDS } from './ocf-mapping';

/** A SAFE or a note (other convertibles have no counterpart), by its conversion terms. */
export const convertibleIssuanceOcf: OcfMapping<'TX_CONVERTIBLE_ISSUANCE'> = {
  export: holdingIssuanceExport,
  import: {
    objects: {
      TX_CONVERTIBLE_ISSUANCE: {
        keeps: [
          ...ISSUANCE_FIELDS,
          'investment_amount',
          'convertible_type',
          'conversion_triggers',
          'pro_rata',
          'seniority',
        ],
        read(l, ctx) {
          const o = l.object;
          const kind = String(o.convertible_type);
          if (kind !== 'SAFE' && kind !== 'NOTE') {
            ctx.warn(l, 'convertible_type', `${kind} has no counterpart (SAFEs and notes do)`);
            return 'unsupported';
          }
          const invested = obj(o.investment_amount)!;
          ctx.notes(o, 'holdingType');
          const triggers = arr(o.conversion_triggers).map((t) => obj(t)!);
          const mechanism = triggers
            .map((t) => obj(obj(t.conversion_right)?.conversion_mechanism))
            .find(
              (m) =>
                m?.type === (kind === 'SAFE' ? 'SAFE_CONVERSION' : 'CONVERTIBLE_NOTE_CONVERSION'),
            );
          const cap = amount(mechanism?.conversion_valuation_cap);
          const discount = percent(mechanism?.conversion_discount);
          const date = String(o.date);
          ctx.warn(
            l,
            'conversion_triggers',
            'conversion triggers are not kept: only the conversion terms',
          );
          let terms: HoldingTerms;
          if (kind === 'SAFE') {
            terms = {
              amount: canonical(String(invested.amount)),
              currency: String(invested.currency),
              safeType: mechanism?.conversion_timing === 'PRE_MONEY' ? 'pre_money' : 'post_money',
              valuationCap: cap,
              discount,
              mfn: mechanism?.conversion_mfn === true,
              proRata: ctx.note<boolean>(o, 'proRata') ?? o.pro_rata !== undefined,
              issueDate: date,
            };
          } else {
            const rates = arr(mechanism?.interest_rates).map((r) => obj(r)!);
            if (rates.length > 1)
              ctx.warn(l, 'conversion_triggers', 'only the first interest rate is kept');
            const maturity =
              ctx.note<string>(o, 'maturityDate') ??
              triggers.find((t) => t.type === 'AUTOMATIC_ON_DATE' && str(t.trigger_date))
                ?.trigger_date ??
              rates[0]?.accrual_end_date;
            if (!str(maturity)) {
              ctx.problem(
                l,
                'conversion_triggers',
                'a note needs a maturity date (an AUTOMATIC_ON_DATE trigger)',
              );
              return false;
            }
            terms = {
              principal: canonical(String(invested.amount)),
              currency: String(invested.currency),
              interestRate: ctx.note<string>(o, 'interestRate') ?? percent(rates[0]?.rate) ?? '0',
              interestType: mechanism?.compounding_type === 'COMPOUNDING' ? 'compound' : 'simple',
              dayCount: mechanism?.day_count_convention === '30_360' ? '30/360' : 'actual/365',
              issueDate: date,
              maturityDate: String(maturity),
              valuationCap: cap,
              discount,
            };
          }
          return addHolding(ctx, l, 'TX_CONVERTIBLE_ISSUANCE', {
            id: ctx.newId(),
            memberId: ctx.members.get(String(o.stakeholder_id))!.memberId,
            type: kind === 'SAFE' ? 'safe' : 'convertible_note',
            planId: null,
            poolId: null,
            securityId: null,
            vestingScheduleId: null,
            terms,
          });
        },
      },
    },
  },
};
