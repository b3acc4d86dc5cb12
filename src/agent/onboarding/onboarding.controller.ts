import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtension,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request } from 'express';
import {
  ApiErrors,
  ApiKeyedErrors,
  Authenticated,
  clientIp,
  CurrentUserId,
  DomainError,
  Multipart,
  Public,
} from '../../common';
import { OnboardingDraft } from './draft';
import { ClarifyDto, CorrectDto, CreateOnboardingDto, OnboardingIdDto } from './onboarding.dto';
import type { AnalysisFile } from './onboarding-prompt';
import { OnboardingService } from './onboarding.service';
import {
  AnalysisStatusView,
  BuildView,
  FirstLoginView,
  OnboardingView,
  QuestionView,
  ShowcaseView,
} from './onboarding.view';

const MiB = 1024 * 1024;
const PUBLIC_READ =
  'No session needed while no user has linked the onboarding; from then on only the linked ' +
  'user’s session reads it (404 for anyone else).';
const MINE =
  'The caller’s onboarding: one they linked, or an unlinked one started with their e-mail ' +
  'address (which this links). 403 for an unlinked one of another address, 404 for one linked ' +
  'to someone else, 409 when it is linked to another account of the same address.';
/** The refusals of a route on the caller's onboarding (see MINE). */
const Mine = (notFound = 'No such onboarding, or linked to another user') =>
  applyDecorators(
    ApiForbiddenResponse({
      description: 'An unlinked onboarding started with another e-mail address',
    }),
    ApiNotFoundResponse({ description: notFound }),
  );

const ANALYSES =
  'ONBOARDING_ANALYSES_PER_ONBOARDING a day; the model’s tokens are the caller’s ' +
  '(AGENT_ORG_DAILY_TOKENS a UTC day).';
const ANALYSIS_LIMITED =
  'Too many analyses of this onboarding today, or (key `agentBudgetExhausted`) the caller’s ' +
  'language-model tokens for the UTC day are spent: `Retry-After`, `X-RateLimit-*`';

const BUILD_ERRORS = [
  409,
  'Not analysed yet, the analysis failed, or (build) a required question is unanswered',
] as [number, string];

/** The sign-up session's id of the user, when there is one (public routes read it too). */
const sessionUser = (req: Request) => req.session?.userId ?? null;

/** Files of an analysis: PDFs (by their signature) and CSV files; anything else is 400. */
function analysisFiles(files: Express.Multer.File[] | undefined): AnalysisFile[] {
  return (files ?? []).map((f) => {
    if (f.buffer.subarray(0, 5).toString('latin1') === '%PDF-') {
      return { name: f.originalname, kind: 'pdf', bytes: f.buffer };
    }
    if (/\.csv$/i.test(f.originalname) || f.mimetype === 'text/csv') {
      return { name: f.originalname, kind: 'csv', bytes: f.buffer };
    }
    throw DomainError.badRequest(`${f.originalname}: only PDF and CSV files can be analysed`, {
      body: { field: f.fieldname },
    });
  });
}

@ApiTags('agent')
@ApiExtraModels(OnboardingDraft)
@Controller('v1/agent/onboarding')
export class OnboardingController {
  constructor(private readonly onboarding: OnboardingService) {}

  @Post('create')
  @Public()
  @ApiOperation({
    summary: 'Start an AI-assisted onboarding (at sign-up, without a session)',
    description:
      'Stores the description and queues its analysis (poll `analysis-status/:onboarding`). ' +
      'ONBOARDING_IP_LIMIT per client address (an IPv6 one by its /64) per hour, and ' +
      'ONBOARDING_CREATES_PER_HOUR from all clients together, then 429 with `Retry-After` and ' +
      '`X-RateLimit-*`. The first analysis spends the tokens shared by all onboardings not yet ' +
      'linked (ONBOARDING_ANONYMOUS_DAILY_TOKENS); once they are spent for the day it ends ' +
      '`failed` without calling the model.',
  })
  @ApiCreatedResponse({ type: OnboardingView })
  @ApiErrors([
    429,
    'Too many onboardings from this address or from all (`Retry-After`, `X-RateLimit-*`)',
  ])
  create(@Req() req: Request, @Body() dto: CreateOnboardingDto): Promise<OnboardingView> {
    return this.onboarding.create(clientIp(req), dto);
  }

  @Get('first-login')
  @Authenticated()
  @ApiOperation({
    summary: 'Whether this is the first login after an onboarding built an organization',
    description:
      'From the caller’s latest linked onboarding: `isFirstLogin` until `complete`; all null ' +
      'and false when they have none.',
  })
  @ApiOkResponse({ type: FirstLoginView })
  firstLogin(@CurrentUserId() userId: string): Promise<FirstLoginView> {
    return this.onboarding.firstLogin(userId);
  }

  @Get('analysis-status/:onboarding')
  @Public()
  @ApiOperation({ summary: 'The analysis status of an onboarding', description: PUBLIC_READ })
  @ApiOkResponse({ type: AnalysisStatusView })
  @ApiNotFoundResponse({ description: 'No such onboarding (or not the caller’s)' })
  status(@Req() req: Request, @Param('onboarding') id: string): Promise<AnalysisStatusView> {
    return this.onboarding.status(id, sessionUser(req));
  }

  @Get('questions/:onboarding')
  @Public()
  @ApiOperation({
    summary: 'The clarifying questions of an onboarding',
    description: `The model’s questions and one per failed check of the draft’s figures (answered ones included). ${PUBLIC_READ}`,
  })
  @ApiOkResponse({ type: [QuestionView] })
  @ApiNotFoundResponse({ description: 'No such onboarding (or not the caller’s)' })
  questions(@Req() req: Request, @Param('onboarding') id: string): Promise<QuestionView[]> {
    return this.onboarding.questions(id, sessionUser(req));
  }

  @Get('showcase/:onboarding')
  @Public()
  @ApiOperation({
    summary: 'Preview of the organization a build would create',
    description: `Every item of the draft with its source, the model’s confidence and what the checks found wrong; totals. ${PUBLIC_READ}`,
  })
  @ApiOkResponse({ type: ShowcaseView })
  @ApiNotFoundResponse({ description: 'No such onboarding (or not the caller’s)' })
  showcase(@Req() req: Request, @Param('onboarding') id: string): Promise<ShowcaseView> {
    return this.onboarding.showcase(id, sessionUser(req));
  }

  @Get(':onboarding')
  @Public()
  @ApiOperation({ summary: 'An onboarding', description: PUBLIC_READ })
  @ApiOkResponse({ type: OnboardingView })
  @ApiNotFoundResponse({ description: 'No such onboarding (or not the caller’s)' })
  get(@Req() req: Request, @Param('onboarding') id: string): Promise<OnboardingView> {
    return this.onboarding.get(id, sessionUser(req));
  }

  @Post('link')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Link an onboarding to the caller',
    description:
      'The session’s e-mail address must be the one the onboarding was started with (403 ' +
      'otherwise, linked or not); one linked to another account of that address (after an ' +
      'e-mail change) is 409. Linking again is 200. From then on only the caller reads it.',
  })
  @ApiOkResponse({ type: OnboardingView })
  @Mine('No such onboarding')
  @ApiConflictResponse({ description: 'Linked to another account of the same address' })
  link(@CurrentUserId() userId: string, @Body() dto: OnboardingIdDto): Promise<OnboardingView> {
    return this.onboarding.link(userId, dto.onboardingId);
  }

  @Post('analyze')
  @HttpCode(200)
  @Authenticated()
  @Multipart({ maxFileBytes: () => 10 * MiB, maxFiles: 5 })
  @ApiOperation({
    summary: 'Analyse again, with the answers, the corrections and optional files',
    description:
      `JSON \`{onboardingId}\`, or a form with \`onboardingId\` and up to 5 PDF or CSV files ` +
      `(10 MiB each). Answers 200 with the onboarding: \`analyzed\`, or \`failed\` with ` +
      `\`analysisError\` when the model’s draft was not usable. ${ANALYSES} ${MINE}`,
  })
  @ApiOkResponse({ type: OnboardingView })
  @ApiConflictResponse({ description: 'The organization is already built' })
  @ApiErrors([429, ANALYSIS_LIMITED])
  @ApiKeyedErrors('agentUnavailable')
  @Mine()
  // What the model records (tool `record_onboarding_draft`), and the showcase's fields follow.
  @ApiExtension('x-draft-schema', { $ref: getSchemaPath(OnboardingDraft) })
  analyze(
    @CurrentUserId() userId: string,
    @Req() req: Request,
    @Body() dto: OnboardingIdDto,
  ): Promise<OnboardingView> {
    const files = analysisFiles(req.files as Express.Multer.File[] | undefined);
    return this.onboarding.analyze(userId, dto.onboardingId, files);
  }

  @Post('clarify')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Answer a clarifying question',
    description:
      'The answer must fit the question’s kind (400 otherwise). A number, date, choice or ' +
      'boolean answer about an item’s field also sets that field; a text answer is used by the ' +
      `next analysis. ${MINE}`,
  })
  @ApiOkResponse({ type: QuestionView })
  @Mine('No such onboarding or question, or the onboarding is linked to another user')
  @ApiConflictResponse({ description: 'The organization is already built' })
  clarify(@CurrentUserId() userId: string, @Body() dto: ClarifyDto): Promise<QuestionView> {
    return this.onboarding.clarify(userId, dto);
  }

  @Post('correct')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Correct one field of a draft item',
    description:
      '`newValue` is coerced to the field’s type (400 when it does not fit or the item has no ' +
      'such field); the checks run again and their questions follow. Later analyses keep the ' +
      `correction. Answers the showcase. ${MINE}`,
  })
  @ApiOkResponse({ type: ShowcaseView })
  @Mine('No such onboarding or item, or the onboarding is linked to another user')
  @ApiConflictResponse({ description: 'The organization is already built' })
  correct(@CurrentUserId() userId: string, @Body() dto: CorrectDto): Promise<ShowcaseView> {
    return this.onboarding.correct(userId, dto);
  }

  @Post('build')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Build the organization from the analysed draft',
    description:
      'No model call. In one transaction: the organization (the caller its Owner), its members ' +
      'and its cap table, written through the ledger as an OCF import is. Repeating it answers ' +
      'the same organization and creates nothing. 400 `invalidFields` with `problems` when the ' +
      `draft fails its checks. ${MINE}`,
  })
  @ApiOkResponse({ type: BuildView })
  @ApiErrors(BUILD_ERRORS)
  @ApiKeyedErrors('invalidFields')
  @Mine()
  build(@CurrentUserId() userId: string, @Body() dto: OnboardingIdDto): Promise<BuildView> {
    return this.onboarding.build(userId, dto.onboardingId);
  }

  @Post('setup')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Analyse if needed, fill in defaults and build',
    description:
      'As `build`, but open questions do not hold it back: what the draft lacks gets a default ' +
      '(the name from the e-mail’s domain, USD, today’s dates, a Common class). Repeating it ' +
      `answers the same organization. An analysis it runs counts as \`analyze\`’s. ${MINE}`,
  })
  @ApiOkResponse({ type: BuildView })
  @ApiErrors(BUILD_ERRORS, [429, ANALYSIS_LIMITED])
  @ApiKeyedErrors('invalidFields', 'agentUnavailable')
  @Mine()
  setup(@CurrentUserId() userId: string, @Body() dto: OnboardingIdDto): Promise<BuildView> {
    return this.onboarding.setup(userId, dto.onboardingId);
  }

  @Post('complete')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Mark the onboarding complete (the first login is over)',
    description: `409 before the organization is built; repeating it changes nothing. ${MINE}`,
  })
  @ApiOkResponse({ type: OnboardingView })
  @ApiConflictResponse({ description: 'The organization is not built yet' })
  @Mine()
  complete(@CurrentUserId() userId: string, @Body() dto: OnboardingIdDto): Promise<OnboardingView> {
    return this.onboarding.complete(userId, dto.onboardingId);
  }
}
