import { Body, Controller, Delete, Get, Header, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, AccessContext, ApiKeyedErrors, PageQuery, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { ExerciseDto, ExerciseRequestDto } from './option.dto';
import { OptionExerciseService } from './option-exercise.service';
import { OptionReadsService } from './option-reads.service';
import { ExerciseRequestView, ExerciseView, OptionView } from './option.view';

const EXERCISABLE =
  '`insufficientShares`: more than the option has exercisable on the date (vested, or all of it when early exercise is allowed, less what was exercised or cancelled)';
const STATE_CONFLICT =
  'The option is expired on the date (after its expiration date), cancelled or fully exercised';

/**
 * Options addressed under their plan and pool (spec 4.7): the pool's list, the deprecated read,
 * and exercise. The plan and pool in the path must be the option's (else 404), so another
 * organization's plan or pool never addresses an option here.
 */
@ApiTags('cap table')
@Controller('v1/plan/:plan/pool/:pool/option')
export class PlanPoolOptionsController {
  constructor(
    private readonly reads: OptionReadsService,
    private readonly exercises: OptionExerciseService,
  ) {}

  @Get()
  @Permission('canViewPool', { record: 'pool' })
  @ApiOperation({
    summary: 'The options of a pool, oldest first (`?limit`, `?offset`)',
    description: 'The pool must be the plan’s (else 404).',
  })
  @ApiOkResponse({ description: 'The pool’s options', type: [OptionView] })
  list(
    @Access() access: AccessContext,
    @Param('plan') plan: string,
    @Param('pool') pool: string,
    @Query() page: PageQuery,
  ) {
    return this.reads.ofPool(access.organizationId!, plan, pool, page);
  }

  @Get(':option')
  @Permission('canViewOptionOld', { record: 'option' })
  @Header('Deprecation', 'true')
  @ApiOperation({
    summary: 'One option (deprecated: use `GET /v1/option/:option`; to be removed)',
    description:
      'Answers with `Deprecation: true` and `Link: </v1/option/:option>; rel="successor-version"`. ' +
      'The plan and pool must be the option’s (else 404). The option’s holder may read it too.',
    deprecated: true,
  })
  @ApiOkResponse({
    description: 'The option, with its vesting today',
    type: OptionView,
    headers: {
      Deprecation: { description: 'Always `true`', schema: { type: 'string', enum: ['true'] } },
      Link: {
        description: 'The successor route: `</v1/option/:option>; rel="successor-version"`',
        schema: { type: 'string' },
      },
    },
  })
  async getOld(
    @Param('plan') plan: string,
    @Param('pool') pool: string,
    @Param('option') option: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    const view = await this.reads.get(option, { plan, pool });
    res.setHeader('Link', `</v1/option/${view.id}>; rel="successor-version"`);
    return view;
  }

  @Post(':option/exercise/request')
  @Idempotent()
  @Permission('canEditExerciseOption', { record: 'option', orSelf: true })
  @ApiOperation({
    summary: 'Ask to exercise part of an option (pending until an editor exercises or rejects)',
    description:
      'The option’s holder may ask without `canEditExerciseOption`. `date` defaults to today and ' +
      `must not be after it; the quantity is checked against what is exercisable on the date. ${EXERCISABLE}. ` +
      'Fractional quantities only for an LLC. Event `option.exercise_requested`.',
  })
  @ApiCreatedResponse({ description: 'The request (status `pending`)', type: ExerciseRequestView })
  @ApiKeyedErrors('insufficientShares', 'invalidFields')
  @ApiConflictResponse({ description: STATE_CONFLICT })
  request(
    @Access() access: AccessContext,
    @Param('plan') plan: string,
    @Param('pool') pool: string,
    @Param('option') option: string,
    @Body() dto: ExerciseRequestDto,
  ) {
    return this.exercises.request(access, { plan, pool, option }, dto);
  }

  @Post(':option/exercise')
  @Idempotent()
  @Permission('canEditExerciseOption', { record: 'option' })
  @ApiOperation({
    summary: 'Exercise an option: issue shares of the plan’s class at the exercise price',
    description:
      'Only roles with `canEditExerciseOption` (the holder asks with `.../exercise/request`). ' +
      'With `requestId` it approves that pending request of this option (another option’s → 404, ' +
      'one no longer pending → 409): the request’s quantity, date and payment method apply unless ' +
      'the body gives others. Without it, `quantity` is required and `date` defaults to today; ' +
      `dates after today → 400. ${EXERCISABLE}. The new shareholding carries the organization’s ` +
      'default legends and a certificate number of the class; the plan’s reservation becomes ' +
      'issued shares. Events `option.exercised` and `billing.shareholder_count_changed`.',
  })
  @ApiCreatedResponse({ description: 'The exercise', type: ExerciseView })
  @ApiKeyedErrors('insufficientShares', 'invalidFields')
  @ApiConflictResponse({ description: `${STATE_CONFLICT}; or the request is not pending` })
  exercise(
    @Access() access: AccessContext,
    @Param('plan') plan: string,
    @Param('pool') pool: string,
    @Param('option') option: string,
    @Body() dto: ExerciseDto,
  ) {
    return this.exercises.exercise(access, { plan, pool, option }, dto);
  }

  @Delete(':option/exercise/request/:request')
  @Permission('canEditExerciseOption', { record: 'exerciseRequest', param: 'request' })
  @ApiOperation({
    summary: 'Reject a pending exercise request',
    description:
      'The request must be this option’s, in this plan and pool (else 404). Event `option.exercise_request_rejected`.',
  })
  @ApiOkResponse({
    description: 'The request as it now stands (status `rejected`)',
    type: ExerciseRequestView,
  })
  @ApiConflictResponse({ description: 'The request is no longer pending (approved or rejected)' })
  reject(
    @Access() access: AccessContext,
    @Param('plan') plan: string,
    @Param('pool') pool: string,
    @Param('option') option: string,
    @Param('request') request: string,
  ) {
    return this.exercises.reject(access, { plan, pool, option }, request);
  }
}
