import { Injectable } from '@nestjs/common';
import { AccessContext } from '../../common';
import { LedgerWriter } from '../ledger/ledger-writer';
import type { AmendIssuanceInput } from '../ledger/transactions/stock-issuance-amended';
import type { IssueInput } from '../ledger/transactions/stock-issuance';
import { transferResult, TransferInput } from '../ledger/transactions/stock-transfer';
import { LegendsService } from '../legends/legends.service';
import {
  AmendShareholdingDto,
  IssueShareholdingDto,
  ReplaceShareholdingDto,
  TransferDto,
} from './shareholding.dto';
import { ShareholdingView, TransferView } from './shareholding.view';

/**
 * Issuing, transferring, amending and voiding shareholdings: each a command of the ledger
 * (`LedgerWriter.execute`), whose definition holds its rules, its payload and its event. What
 * is left here is the caller's input: the class's default legends when none were named.
 */
@Injectable()
export class ShareholdingsService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly legends: LegendsService,
  ) {}

  async issue(access: AccessContext, dto: IssueShareholdingDto): Promise<ShareholdingView> {
    const input: IssueInput = {
      securityId: dto.security,
      memberId: dto.member,
      quantity: dto.quantity,
      pricePerShare: dto.pricePerShare,
      issueDate: dto.issueDate,
      legendIds: dto.legendIds ?? (await this.legends.defaults(access.organizationId!)),
      consideration: dto.consideration,
    };
    return this.answer(
      this.ledger.execute('TX_STOCK_ISSUANCE', input, access, (o) =>
        o.view('shareholdings', o.payload!.shareholdingId),
      ),
    );
  }

  async transfer(access: AccessContext, dto: TransferDto): Promise<TransferView> {
    const input: TransferInput = {
      shareholdingId: dto.shareholding,
      toMemberId: dto.toMember,
      quantity: dto.quantity,
      date: dto.date,
      pricePerShare: dto.pricePerShare,
    };
    return this.answer(
      this.ledger.execute('TX_STOCK_TRANSFER', input, access, (o) =>
        transferResult(o as Parameters<typeof transferResult>[0]),
      ),
    );
  }

  /** PATCH (`replace` false) or PUT (`replace` true) of the editable fields, as a correction. */
  amend(
    access: AccessContext,
    id: string,
    dto: AmendShareholdingDto | ReplaceShareholdingDto,
    replace: boolean,
  ): Promise<ShareholdingView> {
    const input: AmendIssuanceInput = {
      shareholdingId: id,
      replace,
      quantity: dto.quantity,
      pricePerShare: dto.pricePerShare,
      issueDate: dto.issueDate,
      legendIds: dto.legendIds,
      consideration: dto.consideration,
      memberId: dto.member,
      securityId: dto.security,
    };
    return this.answer(
      this.ledger.execute('STOCK_ISSUANCE_AMENDED', input, access, (o) =>
        o.view('shareholdings', id),
      ),
    );
  }

  /**
   * DELETE: the shareholding is voided (a cancellation transaction); its shares are unissued
   * again. Answers it as it now stands (status `voided`).
   */
  void(access: AccessContext, id: string): Promise<ShareholdingView> {
    return this.answer(
      this.ledger.execute('TX_STOCK_CANCELLATION', { shareholdingId: id }, access, (o) =>
        o.view('shareholdings', id),
      ),
    );
  }

  private async answer<V>(run: Promise<{ answer?: object }>): Promise<V> {
    return (await run).answer as V;
  }
}
