import { Injectable } from '@nestjs/common';
import { addDays } from '../../../libs/cap-math';
import { AccessContext } from '../../common';
import { InTransaction } from '../../database';
import { toHoldingState } from '../ledger/incentive-store';
import { LedgerWriter } from '../ledger/ledger-writer';
import {
  conversionResult,
  type ConvertInput,
  type Financing,
} from '../ledger/transactions/convertible-conversion';
import { LegendsService } from '../legends/legends.service';
import { PositionReader } from '../position/position-reader';
import { ConvertDto, RepayDto } from './holding.dto';
import { HoldingRepository } from './holding.repository';
import type { ConvertedView, HoldingView } from './holding.view';

/**
 * How notes and SAFEs end: a note is repaid (interest owed first, then principal; nothing left
 * → `repaid`), a note or SAFE converts into shares in a priced round (`converted`). Each is a
 * command of the ledger (`LedgerWriter.execute`) whose definition holds its rules and its event;
 * what is left here is what they read elsewhere: the organization's default legends, and the cap
 * table a conversion is computed on.
 */
@Injectable()
export class HoldingSettlementsService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly legends: LegendsService,
    private readonly holdings: HoldingRepository,
    private readonly positions: PositionReader,
  ) {}

  async repay(access: AccessContext, id: string, dto: RepayDto): Promise<HoldingView> {
    const input = { holdingId: id, amount: dto.amount, date: dto.date };
    const { answer } = await this.ledger.execute('TX_CONVERTIBLE_REPAYMENT', input, access, (o) =>
      o.view('holdings', id),
    );
    return answer as HoldingView;
  }

  async convert(access: AccessContext, id: string, dto: ConvertDto): Promise<ConvertedView> {
    const organizationId = access.organizationId!;
    const input: ConvertInput = {
      holdingId: id,
      securityId: dto.security,
      date: dto.date,
      pricePerShare: dto.pricePerShare,
      preMoneyValuation: dto.preMoneyValuation,
      legendIds: await this.legends.defaults(organizationId),
      readFinancing: (tx, date) => this.financing(tx, organizationId, date),
    };
    const { answer } = await this.ledger.execute('TX_CONVERTIBLE_CONVERSION', input, access, (o) =>
      conversionResult(o as Parameters<typeof conversionResult>[0]),
    );
    return answer as ConvertedView;
  }

  /**
   * The cap table immediately before the financing (everything effective before its date) and
   * what already converted in it, read in the conversion's transaction.
   */
  private async financing(
    tx: InTransaction,
    organizationId: string,
    date: string,
  ): Promise<Financing> {
    const before = await this.positions.positionAsOf(organizationId, addDays(date, -1), tx);
    const converted = await this.holdings.convertedOn(tx, organizationId, date);
    return { before, converted: converted.map(toHoldingState) };
  }
}
