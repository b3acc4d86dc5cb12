import { Injectable } from '@nestjs/common';
import type Decimal from 'decimal.js';
import {
  CapMathError,
  modelRound,
  RoundConvertible,
  RoundHolder,
  toDecimal,
  toDecimalString,
} from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import type { HoldingState } from '../ledger/ledger-state';
import { convertibleInstrument } from '../position/convertibles';
import { ModelPosition, ModelPositionService } from './model-position.service';
import { modelRefused } from './model-refused';
import type { RoundModelDto } from './round-model.dto';
import { RoundModelView } from './round-model.view';

const ZERO = toDecimal(0);
/** The request's fields `modelRound` takes under their own names. */
const REQUEST_FIELDS = [
  'preMoneyValuation',
  'investments',
  'optionPoolTopUp',
  'poolIncludedInPreMoney',
  'convertSafes',
  'convertNotes',
  'closingDate',
  'priceDecimals',
];

/**
 * A priced round on today's (or `asOf`'s) cap table, stored nowhere: libs/cap-math's modelRound
 * on the holders as converted to common, the outstanding grants and warrants, the pools'
 * available shares and the active SAFEs and notes.
 */
@Injectable()
export class RoundModelService {
  constructor(private readonly positions: ModelPositionService) {}

  async model(access: AccessContext, dto: RoundModelDto): Promise<RoundModelView> {
    const names = dto.investments.map((i) => i.name.trim());
    if (new Set(names).size !== names.length) {
      throw DomainError.badRequest('investments must have different names');
    }
    const position = await this.positions.position(access, dto.asOf);
    try {
      const model = modelRound({
        holders: holdersOf(position),
        poolAvailable: position.poolAvailable,
        convertibles: position.convertibles.map(toRoundConvertible),
        preMoneyValuation: dto.preMoneyValuation,
        investments: dto.investments.map((i, n) => ({ name: names[n], amount: i.amount })),
        ...(dto.optionPoolTopUp && {
          optionPoolTopUp: { postMoneyPercent: dto.optionPoolTopUp.postMoneyPercent },
        }),
        poolIncludedInPreMoney: dto.poolIncludedInPreMoney ?? true,
        convertSafes: dto.convertSafes ?? true,
        convertNotes: dto.convertNotes ?? true,
        closingDate: dto.closingDate,
        fractional: position.fractional,
        ...(dto.priceDecimals !== undefined && { priceDecimals: dto.priceDecimals }),
      });
      const text = toDecimalString;
      return {
        asOf: position.asOf,
        closingDate: dto.closingDate,
        pricePerShare: text(model.pricePerShare),
        preMoneyValuation: text(model.preMoneyValuation),
        preMoneyFullyDilutedShares: text(model.preMoneyFullyDilutedShares),
        postMoneyValuation: text(model.postMoneyValuation),
        postMoneyFullyDilutedShares: text(model.postMoneyFullyDilutedShares),
        newMoney: text(model.newMoney),
        poolIncrease: text(model.poolIncrease),
        conversions: model.conversions.map((c) => ({
          holding: c.key,
          member: c.holderKey,
          type: c.type === 'note' ? 'convertible_note' : 'safe',
          amount: text(c.amount),
          accruedInterest: text(c.accruedInterest),
          shares: text(c.shares),
          pricePerShare: text(c.pricePerShare),
          basis: c.basis,
        })),
        investors: model.investors.map((i) => ({
          name: i.name,
          amount: text(i.amount),
          shares: text(i.shares),
        })),
        byHolder: model.byHolder.map((r) => ({
          member: r.kind === 'holder' ? r.key : null,
          name: r.kind === 'holder' ? (position.names.get(r.key) ?? '') : (r.name ?? r.key),
          kind: r.kind,
          sharesBefore: text(r.sharesBefore),
          sharesAfter: text(r.sharesAfter),
          fullyDilutedPercentBefore: text(r.fullyDilutedPercentBefore),
          fullyDilutedPercentAfter: text(r.fullyDilutedPercentAfter),
        })),
      };
    } catch (err) {
      if (err instanceof CapMathError) throw modelRefused(err, REQUEST_FIELDS);
      throw err;
    }
  }
}

/** Every member with shares (as converted to common) or outstanding grants and warrants. */
function holdersOf(position: ModelPosition): RoundHolder[] {
  const ratio = new Map(position.classes.map((c) => [c.id, toDecimal(c.conversionRatio || 1)]));
  const holders = new Map<string, { shares: Decimal; options: Decimal }>();
  const row = (member: string) => {
    const found = holders.get(member);
    if (found) return found;
    const created = { shares: ZERO, options: ZERO };
    holders.set(member, created);
    return created;
  };
  for (const [member, byClass] of position.shares) {
    const r = row(member);
    for (const [security, quantity] of byClass) {
      r.shares = r.shares.plus(quantity.times(ratio.get(security) ?? 1));
    }
  }
  for (const o of position.options) {
    const r = row(o.holding.memberId);
    r.options = r.options.plus(o.outstanding);
  }
  return [...holders].map(([key, r]) => ({ key, shares: r.shares, options: r.options }));
}

/**
 * A SAFE or note as the round model takes it: the one mapping of a holding to an instrument
 * (`convertibleInstrument`, shared with conversions and the dashboard's preview) in the round
 * model's shape, with the holder its shares go to.
 */
function toRoundConvertible(h: HoldingState): RoundConvertible {
  const i = convertibleInstrument(h);
  const common = {
    key: i.key,
    holderKey: h.memberId,
    ...(i.valuationCap !== undefined && { valuationCap: i.valuationCap }),
    ...(i.discount !== undefined && { discount: i.discount }),
    ...(h.terms.mfn && { mfn: true }),
  };
  if (i.kind !== 'note') return { ...common, type: i.kind, amount: i.purchaseAmount };
  return {
    ...common,
    type: 'note',
    amount: i.principal,
    unpaidInterest: i.unpaidInterest,
    interest: {
      annualRate: i.annualRate,
      interestType: i.interestType,
      dayCount: i.dayCount,
      issueDate: i.interestFrom,
    },
  };
}
