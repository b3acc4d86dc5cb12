import { Injectable } from '@nestjs/common';
import { AccessContext } from '../../common';
import type { OptionPath } from '../ledger/incentives/option-commands';
import { LedgerWriter } from '../ledger/ledger-writer';
import {
  exerciseResult,
  type ExerciseInput,
} from '../ledger/transactions/equity-compensation-exercise';
import type { RejectRequestInput } from '../ledger/transactions/exercise-request-rejected';
import type { ExerciseRequestInput } from '../ledger/transactions/exercise-requested';
import { LegendsService } from '../legends/legends.service';
import { ExerciseDto, ExerciseRequestDto } from './option.dto';
import { ExerciseRequestView, ExerciseView } from './option.view';

/**
 * Exercising options: a holder asks (a pending request), an editor exercises (approving a request
 * or not) or rejects the request. Each is a command of the ledger (`LedgerWriter.execute`),
 * applied under the lock of the grant (and its pool, plan and class), so the exercisable quantity
 * is checked against every earlier exercise: parallel exercises never take more than vested.
 * What is left here is the organization's default legends of the shares an exercise issues.
 */
@Injectable()
export class OptionExerciseService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly legends: LegendsService,
  ) {}

  async request(
    access: AccessContext,
    path: OptionPath,
    dto: ExerciseRequestDto,
  ): Promise<ExerciseRequestView> {
    const input: ExerciseRequestInput = {
      path,
      quantity: dto.quantity,
      date: dto.date,
      paymentMethod: dto.paymentMethod,
    };
    const { answer } = await this.ledger.execute('EXERCISE_REQUESTED', input, access, (o) =>
      o.view('requests', o.payload!.request.id),
    );
    return answer as ExerciseRequestView;
  }

  /**
   * Exercises `quantity` (only editors). With `requestId` it approves that pending request of the
   * option; the request's quantity, date and payment method apply unless the body gives others
   * (an editor may approve a part).
   */
  async exercise(access: AccessContext, path: OptionPath, dto: ExerciseDto): Promise<ExerciseView> {
    const input: ExerciseInput = {
      path,
      quantity: dto.quantity,
      date: dto.date,
      paymentMethod: dto.paymentMethod,
      requestId: dto.requestId,
      legendIds: await this.legends.defaults(access.organizationId!),
    };
    const { answer } = await this.ledger.execute(
      'TX_EQUITY_COMPENSATION_EXERCISE',
      input,
      access,
      (o) => Promise.resolve(exerciseResult(o as Parameters<typeof exerciseResult>[0])),
    );
    return answer as ExerciseView;
  }

  /** Rejects a pending request of the option; answers it as it now stands (status `rejected`). */
  async reject(
    access: AccessContext,
    path: OptionPath,
    requestId: string,
  ): Promise<ExerciseRequestView> {
    const input: RejectRequestInput = { path, requestId };
    const { answer } = await this.ledger.execute('EXERCISE_REQUEST_REJECTED', input, access, (o) =>
      o.view('requests', requestId),
    );
    return answer as ExerciseRequestView;
  }
}
