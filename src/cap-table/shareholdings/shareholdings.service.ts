import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { toDecimalString } from '../../../libs/cap-math';
import { AccessContext, Clock, DomainError } from '../../common';
import { DomainEvent, previousAttributes } from '../../events';
import { StakeholderCounts } from '../billing-counts';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { ShareholdingState } from '../ledger/ledger-state';
import type { IssuanceAmendment } from '../ledger/transaction-types';
import { LegendsService } from '../legends/legends.service';
import { decimalText, quantity } from '../quantities';
import {
  AmendShareholdingDto,
  IssueShareholdingDto,
  ReplaceShareholdingDto,
  TransferDto,
} from './shareholding.dto';
import { Shareholding } from './shareholding.entity';
import { ShareholdingView, toShareholdingView, TransferView } from './shareholding.view';
import { changeEvent } from '../change-event';

/**
 * Issuing, transferring, amending and voiding shareholdings. Each is one transaction of the log,
 * applied under a lock of the share class (and the holding), so the invariants hold under any
 * concurrency: issued ≤ authorized, a transfer never takes more than its source holds, voided
 * shares return to the unissued balance.
 */
@Injectable()
export class ShareholdingsService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly counts: StakeholderCounts,
    private readonly legends: LegendsService,
    private readonly clock: Clock,
  ) {}

  async issue(access: AccessContext, dto: IssueShareholdingDto): Promise<ShareholdingView> {
    const organization = access.organization!;
    const legendIds = dto.legendIds ?? (await this.legends.defaults(organization.id));
    const payload = {
      shareholdingId: randomUUID(),
      securityId: dto.security,
      memberId: dto.member,
      quantity: quantity(dto.quantity, 'quantity', organization),
      pricePerShare: decimalText(dto.pricePerShare),
      issueDate: dto.issueDate,
      legendIds,
      consideration: dto.consideration ?? null,
    };
    const scope = { securities: [dto.security], legends: legendIds };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const security = c.state.securities.get(dto.security);
      if (!security || security.deleted) throw DomainError.notFound('no such class');
      await c.apply('TX_STOCK_ISSUANCE', dto.issueDate, payload);
      const view = await this.read(c, payload.shareholdingId);
      await c.record(
        changeEvent(
          'shareholding.created',
          access,
          view,
          `shareholding ${view.certificateNumber}: ${view.quantity} shares of ${security.name} issued`,
        ),
        this.counts.shareholders(access),
      );
      return view;
    });
  }

  async transfer(access: AccessContext, dto: TransferDto): Promise<TransferView> {
    const organization = access.organization!;
    const moved = quantity(dto.quantity, 'quantity', organization);
    const destinationId = randomUUID();
    const scope = { shareholdings: [dto.shareholding] };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      // Not to the same holder, not before the issue date: the transfer's own rules (validate).
      const source = this.current(c, dto.shareholding);
      const id = await c.apply('TX_STOCK_TRANSFER', dto.date, {
        sourceId: source.id,
        destinationId,
        toMemberId: dto.toMember,
        quantity: moved,
        date: dto.date,
        pricePerShare: decimalText(dto.pricePerShare),
      });
      const result = {
        id,
        source: await this.read(c, source.id),
        destination: await this.read(c, destinationId),
      };
      await c.record(
        {
          type: 'shareholding.transferred',
          organizationId: access.organizationId,
          actorUserId: access.userId,
          object: result,
          description: `shareholding ${result.source.certificateNumber}: ${moved} shares transferred to ${result.destination.certificateNumber}`,
        },
        this.counts.shareholders(access),
      );
      return result;
    });
  }

  /** PATCH (`replace` false) or PUT (`replace` true) of the editable fields, as a correction. */
  async amend(
    access: AccessContext,
    id: string,
    dto: AmendShareholdingDto | ReplaceShareholdingDto,
    replace: boolean,
  ): Promise<ShareholdingView> {
    const organization = access.organization!;
    const scope = { shareholdings: [id], legends: dto.legendIds ?? [] };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const current = this.current(c, id);
      if (
        (dto.member && dto.member !== current.memberId) ||
        (dto.security && dto.security !== current.securityId)
      ) {
        throw DomainError.badRequest(
          'the holder and class of a shareholding change only by a transfer',
        );
      }
      const wanted: IssuanceAmendment = {
        quantity:
          dto.quantity === undefined ? undefined : quantity(dto.quantity, 'quantity', organization),
        pricePerShare:
          replace || dto.pricePerShare !== undefined ? decimalText(dto.pricePerShare) : undefined,
        issueDate: dto.issueDate,
        legendIds: replace ? (dto.legendIds ?? []) : dto.legendIds,
        consideration:
          replace || dto.consideration !== undefined ? (dto.consideration ?? null) : undefined,
      };
      const changes = changedFields(current, wanted);
      const before = await this.read(c, id);
      if (!Object.keys(changes).length) return before;
      await c.apply('STOCK_ISSUANCE_AMENDED', this.clock.today(), { shareholdingId: id, changes });
      const after = await this.read(c, id);
      const previous = previousAttributes(before, after);
      const events: DomainEvent[] = [
        changeEvent(
          'shareholding.updated',
          access,
          after,
          `shareholding ${after.certificateNumber}: ${Object.keys(changes)
            .map(
              (k) =>
                `${k} ${show(before[k as keyof ShareholdingView])} -> ${show(after[k as keyof ShareholdingView])}`,
            )
            .join('; ')}`,
          previous,
        ),
      ];
      await c.record(...events);
      return after;
    });
  }

  /**
   * DELETE: the shareholding is voided (a cancellation transaction); its shares are unissued
   * again. Answers it as it now stands (status `voided`).
   */
  async void(access: AccessContext, id: string): Promise<ShareholdingView> {
    return this.ledger.change(
      access.organizationId!,
      access.userId,
      { shareholdings: [id] },
      async (c) => {
        const current = this.current(c, id);
        await c.apply('TX_STOCK_CANCELLATION', this.clock.today(), {
          shareholdingId: id,
          quantity: toDecimalString(current.quantity),
          reason: 'voided',
        });
        const view = await this.read(c, id);
        await c.record(
          changeEvent(
            'shareholding.voided',
            access,
            view,
            `shareholding ${view.certificateNumber}: voided (${view.quantity} shares)`,
          ),
          this.counts.shareholders(access),
        );
        return view;
      },
    );
  }

  private current(c: LedgerChange, id: string): ShareholdingState {
    const holding = c.state.shareholdings.get(id);
    if (!holding) throw DomainError.notFound('no such shareholding');
    if (holding.status !== 'active') {
      throw DomainError.conflict(`shareholding ${holding.certificateNumber} is ${holding.status}`);
    }
    return holding;
  }

  /** As the change wrote it (no read back), else as the table holds it. */
  private async read(c: LedgerChange, id: string): Promise<ShareholdingView> {
    return toShareholdingView(await c.current(Shareholding, id));
  }
}

function changedFields(current: ShareholdingState, wanted: IssuanceAmendment): IssuanceAmendment {
  const now: Record<string, unknown> = {
    quantity: toDecimalString(current.quantity),
    pricePerShare: current.pricePerShare,
    issueDate: current.issueDate,
    legendIds: current.legendIds,
    consideration: current.consideration,
  };
  return Object.fromEntries(
    Object.entries(wanted).filter(
      ([k, v]) => v !== undefined && JSON.stringify(now[k]) !== JSON.stringify(v),
    ),
  ) as IssuanceAmendment;
}

const show = (v: unknown) =>
  v === null || v === undefined ? 'none' : Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
