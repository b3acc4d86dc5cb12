import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import {
  capAndDiscount,
  CapMathError,
  toDecimal,
  toDecimalString,
  waterfall,
  waterfallBreakpoints,
  WaterfallClass,
  WaterfallConvertible,
  WaterfallHolding,
  WaterfallOption,
  WaterfallStructure,
} from '../../../libs/cap-math';
import { AccessContext } from '../../common';
import { interestOwed } from '../ledger/incentives/holding-figures';
import { ModelPosition, ModelPositionService } from './model-position.service';
import { modelRefused } from './model-refused';
import { BreakpointsView, WaterfallView } from './waterfall.view';

export interface WaterfallOptions {
  asOf?: string;
  transactionExpenses?: string;
  treatUnvestedAsAccelerated?: boolean;
}

const money = (d: { toFixed(places: number): string }) => d.toFixed(2);

/**
 * The exit waterfall of the cap table (libs/cap-math's `waterfall`), stored nowhere: the classes
 * with their terms, the holders' shares by class, the options and warrants that take part
 * (vested ones on asOf, or all when accelerated) and the active SAFEs and notes (a note's
 * cash-out amount is its principal plus the interest owed on asOf).
 */
@Injectable()
export class WaterfallService {
  constructor(private readonly positions: ModelPositionService) {}

  async waterfall(
    access: AccessContext,
    exitValue: string,
    options: WaterfallOptions,
  ): Promise<WaterfallView> {
    const position = await this.positions.position(access, options.asOf);
    const { structure, warnings } = structureOf(position, options);
    const result = solved(() => waterfall({ ...structure, exitValue }));
    const name = (member: string) => position.names.get(member) ?? '';
    return {
      asOf: position.asOf,
      exitValue: toDecimalString(result.exitValue),
      transactionExpenses: toDecimalString(result.transactionExpenses),
      distributable: money(result.distributable),
      commonSharePrice: toDecimalString(result.commonSharePrice.toDecimalPlaces(10)),
      byClass: result.byClass.map((c) => ({
        security: c.key,
        name: c.name,
        preference: money(c.preference),
        participation: money(c.participation),
        converted: c.converted,
        proceeds: money(c.proceeds),
      })),
      byHolder: result.byHolder.map((h) => ({
        member: h.holderKey,
        name: name(h.holderKey),
        proceeds: money(h.proceeds),
        percentOfProceeds: toDecimalString(h.percentOfProceeds),
      })),
      options: result.options.map((o) => ({
        holding: o.key,
        member: o.holderKey,
        exercised: o.exercised,
        proceeds: money(o.proceeds),
      })),
      convertibles: result.convertibles.map((c) => ({
        holding: c.key,
        member: c.holderKey,
        converted: c.converted,
        conversionPrice:
          c.conversionPrice && toDecimalString(c.conversionPrice.toDecimalPlaces(10)),
        proceeds: money(c.proceeds),
      })),
      warnings,
    };
  }

  async breakpoints(access: AccessContext, options: WaterfallOptions): Promise<BreakpointsView> {
    const position = await this.positions.position(access, options.asOf);
    const { structure, warnings } = structureOf(position, options);
    const points = solved(() => waterfallBreakpoints(structure));
    return {
      asOf: position.asOf,
      breakpoints: points.map((p) => ({
        exitValue: toDecimalString(p.exitValue.toDecimalPlaces(2, Decimal.ROUND_UP)),
        securities: p.classKeys,
        events: p.events.map((e) => ({
          kind: e.kind,
          description: e.description,
          security: e.classKey ?? null,
          holding: e.convertibleKey ?? null,
          options: e.optionKeys ?? [],
        })),
      })),
      warnings,
    };
  }
}

function solved<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    // The request's fields the waterfall takes under their own names.
    if (err instanceof CapMathError) throw modelRefused(err, ['exitValue', 'transactionExpenses']);
    throw err;
  }
}

/** The cap table as the waterfall takes it, and what it had to assume. */
function structureOf(
  position: ModelPosition,
  options: WaterfallOptions,
): { structure: WaterfallStructure; warnings: string[] } {
  const warnings: string[] = [];
  const classes: WaterfallClass[] = position.classes.map((c) => {
    if (c.classType !== 'preferred') {
      return { key: c.id, name: c.name, kind: 'common', conversionRatio: c.conversionRatio };
    }
    if (!c.originalIssuePrice) {
      warnings.push(
        `${c.name} has no originalIssuePrice: it is counted without a liquidation preference`,
      );
    }
    return {
      key: c.id,
      name: c.name,
      kind: 'preferred',
      seniority: c.seniority,
      originalIssuePrice: c.originalIssuePrice ?? '0',
      liquidationPreferenceMultiple: c.liquidationPreferenceMultiple ?? '1',
      participating: c.participating,
      ...(c.participating &&
        c.participationCapMultiple && { participationCapMultiple: c.participationCapMultiple }),
      conversionRatio: c.conversionRatio,
    };
  });
  const holdings: WaterfallHolding[] = [];
  for (const [holderKey, byClass] of position.shares) {
    for (const [classKey, shares] of byClass) holdings.push({ holderKey, classKey, shares });
  }
  const accelerated = options.treatUnvestedAsAccelerated ?? false;
  const participating: WaterfallOption[] = position.options
    .map((o) => ({
      key: o.holding.id,
      holderKey: o.holding.memberId,
      shares: accelerated ? o.outstanding : o.vested,
      exercisePrice: o.exercisePrice,
    }))
    .filter((o) => o.shares.gt(0));
  const convertibles: WaterfallConvertible[] = position.convertibles.map((h) => {
    const t = h.terms;
    const terms = {
      key: h.id,
      holderKey: h.memberId,
      ...capAndDiscount({ valuationCap: t.valuationCap, discountPercent: t.discount }),
    };
    if (h.type === 'safe') {
      return {
        ...terms,
        kind: t.safeType === 'pre_money' ? 'pre-money-safe' : 'post-money-safe',
        amount: t.amount ?? '0',
      };
    }
    const owed = (h.principalOutstanding ?? toDecimal(0)).plus(
      interestOwed(h, position.asOf, false),
    );
    return { ...terms, kind: 'note', amount: owed };
  });
  return {
    structure: {
      ...(options.transactionExpenses && { transactionExpenses: options.transactionExpenses }),
      classes,
      holdings,
      options: participating,
      convertibles,
    },
    warnings,
  };
}
