import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  addDays,
  CapMathError,
  compareDates,
  toDecimal,
  toDecimalString,
} from '../../../libs/cap-math';
import { AccessContext, DomainError } from '../../common';
import { interestOwed } from '../ledger/incentives/holding-figures';
import { CONVERTIBLE_TYPES } from '../ledger/incentive-types';
import { LedgerWriter } from '../ledger/ledger-writer';
import { LegendsService } from '../legends/legends.service';
import { PositionReader } from '../position/position-reader';
import { decimalText, fractionalAllowed } from '../quantities';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { toShareholdingView } from '../shareholdings/shareholding.view';
import { convert, conversionRecord } from './conversion-math';
import { ConvertDto, RepayDto } from './holding.dto';
import { HoldingRepository } from './holding.repository';
import { assertActive, holdingEvent, label, lockedHolding } from './holding-events';
import { HoldingReadsService } from './holding-reads.service';
import type { ConvertedView, HoldingView } from './holding.view';

/**
 * How notes and SAFEs end: a note is repaid (interest owed first, then principal; nothing left
 * → `repaid`), a note or SAFE converts into shares in a priced round (`converted`). Each is one
 * transaction of the log under the lock of the holding (and the class it converts into).
 */
@Injectable()
export class HoldingSettlementsService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly legends: LegendsService,
    private readonly holdings: HoldingRepository,
    private readonly reads: HoldingReadsService,
    private readonly positions: PositionReader,
  ) {}

  async repay(access: AccessContext, id: string, dto: RepayDto): Promise<HoldingView> {
    const organization = access.organization!;
    const amount = decimalText(dto.amount)!;
    return this.ledger.change(organization.id, access.userId, { holdings: [id] }, async (c) => {
      const h = lockedHolding(c, id);
      if (h.type !== 'convertible_note') {
        throw DomainError.badRequest(`only convertible notes are repaid, not a ${label(h.type)}`);
      }
      assertActive(h);
      // What the reducer will split the payment into (it checks the amount against it).
      const interest = interestOwed(h, dto.date).toDecimalPlaces(SCALE);
      const paid = toDecimal(amount);
      const toInterest = paid.lt(interest) ? paid : interest;
      await c.apply('TX_CONVERTIBLE_REPAYMENT', dto.date, {
        holdingId: id,
        amount,
        date: dto.date,
      });
      const view = await this.reads.get(id, c.tx);
      const events = [
        holdingEvent(
          'holding.repaid',
          access,
          view,
          `${label(h.type)} ${id}: ${amount} ${h.terms.currency ?? ''} repaid on ${dto.date} ` +
            `(interest ${money(toInterest)}, principal ${money(paid.minus(toInterest))})` +
            (view.status === 'repaid' ? ': repaid in full' : ''),
        ),
      ];
      await c.record(...events);
      return view;
    });
  }

  async convert(access: AccessContext, id: string, dto: ConvertDto): Promise<ConvertedView> {
    const organization = access.organization!;
    const legendIds = await this.legends.defaults(organization.id);
    const scope = { holdings: [id], securities: [dto.security], legends: legendIds };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const h = lockedHolding(c, id);
      if (!CONVERTIBLE_TYPES.has(h.type)) {
        throw DomainError.badRequest(
          `only convertible notes and SAFEs convert, not a ${label(h.type)}`,
        );
      }
      assertActive(h);
      const security = c.state.securities.get(dto.security);
      if (!security || security.deleted) throw DomainError.notFound('no such class');
      const issued = h.terms.issueDate!;
      if (compareDates(dto.date, issued) < 0) {
        throw DomainError.badRequest(`date must not be before the issue date ${issued}`, {
          body: { field: 'date' },
        });
      }
      // The cap table immediately before the financing: everything effective before its date,
      // read in this transaction.
      const before = await this.positions.positionAsOf(
        organization.id,
        addDays(dto.date, -1),
        c.tx,
      );
      const sameRound = (await this.holdings.convertedOn(c.tx, organization.id, dto.date)).filter(
        (x) => x.id !== id && (x.type === 'convertible_note' || x.terms.safeType === 'pre_money'),
      );
      const result = this.compute(() =>
        convert({
          holding: h,
          date: dto.date,
          pricePerShare: decimalText(dto.pricePerShare)!,
          before,
          otherConvertingShares: sameRound.reduce(
            (sum, x) => sum.plus(x.conversion?.shares ?? 0),
            toDecimal(0),
          ),
          fractional: fractionalAllowed(organization),
        }),
      );
      const conversion = conversionRecord(result, {
        date: dto.date,
        shareholdingId: randomUUID(),
        securityId: security.id,
        roundPricePerShare: decimalText(dto.pricePerShare)!,
        preMoneyValuation: decimalText(dto.preMoneyValuation),
      });
      await c.apply('TX_CONVERTIBLE_CONVERSION', dto.date, {
        holdingId: id,
        conversion,
        legendIds,
      });
      const holding = await this.reads.get(id, c.tx);
      const shareholding = toShareholdingView(
        await c.tx.manager
          .getRepository(Shareholding)
          .findOneByOrFail({ id: conversion.shareholdingId }),
      );
      await c.record(
        holdingEvent(
          'holding.converted',
          access,
          holding,
          `${label(h.type)} ${id}: ${conversion.conversionAmount} converted on ${dto.date} into ` +
            `${conversion.shares} shares of ${security.name} (${shareholding.certificateNumber}) at ` +
            `${conversion.conversionPrice} (${conversion.method})`,
        ),
      );
      return { holding, shareholding };
    });
  }

  /** The library's refusals (a cap the SAFEs would own all the company at ...) are 400s. */
  private compute<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      if (err instanceof CapMathError) throw DomainError.badRequest(err.message);
      throw err;
    }
  }
}

/** The ledger's scale: the decimal places of its numeric(38, 10) columns. */
const SCALE = 10;
const money = (d: ReturnType<typeof toDecimal>) => toDecimalString(d.toDecimalPlaces(SCALE));
