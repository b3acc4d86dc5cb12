import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { compareDates } from '../../../libs/cap-math';
import { AccessContext, Clock, DomainError } from '../../common';
import { isGrantType } from '../ledger/incentive-types';
import { LedgerChange, LedgerWriter } from '../ledger/ledger-writer';
import type { HoldingState } from '../ledger/ledger-state';
import { LegendsService } from '../legends/legends.service';
import { decimalText, quantity } from '../quantities';
import { ExerciseRequest } from './exercise-request.entity';
import { ExerciseDto, ExerciseRequestDto } from './option.dto';
import { ExerciseRequestView, ExerciseView, toExerciseRequestView } from './option.view';
import { holderEvent } from '../change-event';

/** Where the deprecated-style paths address an option: `/v1/plan/:plan/pool/:pool/option/:option`. */
export interface OptionPath {
  plan: string;
  pool: string;
  option: string;
}

/**
 * Exercising options: a holder asks (a pending request), an editor exercises (approving a request
 * or not) or rejects the request. Each is one transaction of the log, applied under the lock of
 * the grant (and its pool, plan and class), so the exercisable quantity is checked against every
 * earlier exercise: parallel exercises never take more than vested.
 */
@Injectable()
export class OptionExerciseService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly legends: LegendsService,
    private readonly clock: Clock,
  ) {}

  async request(
    access: AccessContext,
    path: OptionPath,
    dto: ExerciseRequestDto,
  ): Promise<ExerciseRequestView> {
    const organization = access.organization!;
    const date = notAfterToday(dto.date ?? this.clock.today(), this.clock.today());
    const record = {
      id: randomUUID(),
      holdingId: path.option,
      quantity: quantity(dto.quantity, 'quantity', organization),
      date,
      paymentMethod: dto.paymentMethod ?? null,
      requestedByUserId: access.userId,
    };
    const scope = { holdings: [path.option] };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const option = optionAt(c, path);
      await c.apply('EXERCISE_REQUESTED', date, { request: record });
      const view = toExerciseRequestView(
        await c.tx.manager.getRepository(ExerciseRequest).findOneByOrFail({ id: record.id }),
      );
      await c.record(
        holderEvent(
          option.memberId,
          'option.exercise_requested',
          access,
          view,
          `${option.type} ${option.id}: exercise of ${view.quantity} requested for ${date}`,
        ),
      );
      return view;
    });
  }

  /**
   * Exercises `quantity` (only editors). With `requestId` it approves that pending request of the
   * option; the request's quantity, date and payment method apply unless the body gives others
   * (an editor may approve a part).
   */
  async exercise(access: AccessContext, path: OptionPath, dto: ExerciseDto): Promise<ExerciseView> {
    const organization = access.organization!;
    if (dto.date !== undefined) notAfterToday(dto.date, this.clock.today());
    const legendIds = await this.legends.defaults(organization.id);
    const shareholdingId = randomUUID();
    const scope = {
      holdings: [path.option],
      requests: dto.requestId ? [dto.requestId] : [],
      legends: legendIds,
    };
    return this.ledger.change(organization.id, access.userId, scope, async (c) => {
      const option = optionAt(c, path);
      const request = dto.requestId ? c.state.requests.get(dto.requestId) : undefined;
      if (dto.requestId && (!request || request.holdingId !== option.id)) {
        throw DomainError.notFound('no such exercise request of this option');
      }
      if (request && request.status !== 'pending') {
        throw DomainError.conflict(`the exercise request is ${request.status}`);
      }
      const exercised = quantity(dto.quantity ?? request!.quantity, 'quantity', organization);
      const date = dto.date ?? request?.date ?? this.clock.today();
      const paymentMethod =
        dto.paymentMethod !== undefined
          ? (dto.paymentMethod ?? null)
          : (request?.paymentMethod ?? null);
      const id = await c.apply('TX_EQUITY_COMPENSATION_EXERCISE', date, {
        holdingId: option.id,
        requestId: request?.id ?? null,
        quantity: exercised,
        date,
        paymentMethod,
        shareholdingId,
        legendIds,
      });
      const result: ExerciseView = {
        id,
        option: option.id,
        quantity: exercised,
        shareholding: shareholdingId,
        date,
        paymentMethod,
        request: request?.id ?? null,
      };
      const shares = c.state.shareholdings.get(shareholdingId)!;
      const security = c.state.securities.get(shares.securityId)!;
      const price = decimalText(option.terms.exercisePrice);
      await c.record(
        holderEvent(
          option.memberId,
          'option.exercised',
          access,
          result,
          `${option.type} ${option.id}: ${exercised} exercised into shareholding ${shares.certificateNumber} of ${security.name}` +
            (price === null ? '' : ` at ${price}`) +
            (request ? ' (request approved)' : ''),
        ),
      );
      return result;
    });
  }

  /** Rejects a pending request of the option; answers it as it now stands (status `rejected`). */
  async reject(
    access: AccessContext,
    path: OptionPath,
    requestId: string,
  ): Promise<ExerciseRequestView> {
    return this.ledger.change(
      access.organizationId!,
      access.userId,
      { requests: [requestId] },
      async (c) => {
        const request = c.state.requests.get(requestId);
        if (!request || request.holdingId !== path.option) {
          throw DomainError.notFound('no such exercise request of this option');
        }
        const option = optionAt(c, path);
        await c.apply('EXERCISE_REQUEST_REJECTED', this.clock.today(), { requestId });
        const view = toExerciseRequestView(
          await c.tx.manager.getRepository(ExerciseRequest).findOneByOrFail({ id: requestId }),
        );
        await c.record(
          holderEvent(
            option.memberId,
            'option.exercise_request_rejected',
            access,
            view,
            `${option.type} ${option.id}: exercise request of ${view.quantity} for ${view.date} rejected`,
          ),
        );
        return view;
      },
    );
  }
}

/** The locked option the path names: a grant of that plan and pool, else 404. */
function optionAt(c: LedgerChange, path: OptionPath): HoldingState {
  const option = c.state.holdings.get(path.option);
  if (
    !option ||
    !isGrantType(option.type) ||
    option.planId !== path.plan ||
    option.poolId !== path.pool
  ) {
    throw DomainError.notFound('no such option in this plan and pool');
  }
  return option;
}

/**
 * Exercise dates are today or earlier: vesting is checked as of the date, so a later date would
 * let a holder exercise (or ask for) shares that have not vested yet.
 */
function notAfterToday(date: string, today: string): string {
  if (compareDates(date, today) > 0) {
    throw DomainError.badRequest(`date must not be after today (${today})`, {
      body: { field: 'date' },
    });
  }
  return date;
}
