import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, ApiErrors, Permission } from '../../common';
import { eventReaderOf } from '../../organizations';
import { WebhookEndpointsService } from '../webhook-endpoints.service';
import {
  DEFAULT_ATTEMPT_LIMIT,
  DEFAULT_TEST_EVENT,
  ListAttemptsQuery,
  TestWebhookDto,
} from './webhook-actions.dto';
import { SEND_LIMIT, WebhookActions } from './webhook-actions.service';
import {
  AttemptListView,
  ResendView,
  RotatedSecretView,
  TestDeliveryView,
} from './webhook-actions.view';

const NOT_FOUND = 'No such endpoint (or event) in this organization';
const SENDS_LIMITED =
  `More than ${SEND_LIMIT.limit} test events and resends of the organization in a minute ` +
  '(`Retry-After` in seconds, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`: ' +
  'the end of the window as a unix timestamp)';

@ApiTags('webhooks')
@Controller('v1/organization/:organization/webhook/:webhook')
export class WebhookActionsController {
  constructor(
    private readonly actions: WebhookActions,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  @Post('test')
  @HttpCode(200)
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Send one test event to the endpoint now',
    description:
      'One attempt, not retried, of an event of `event_type` (default `organization.updated`) ' +
      'whose `data.object` is the organization as `GET /v1/organization/:organization` answers ' +
      'it, signed like every delivery. Test events are not in the event list, and do not ' +
      'disable or heal the endpoint; an inactive endpoint can be tested too. 200 whatever the ' +
      'endpoint answered: `success` tells, `httpStatus` is 0 only when no response came (then ' +
      '`error` says why, e.g. the URL is no longer allowed).',
  })
  @ApiOkResponse({ type: TestDeliveryView })
  @ApiErrors([429, SENDS_LIMITED])
  @ApiBadRequestResponse({ description: 'event_type not an event type of spec section 6' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  test(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Access() access: AccessContext,
    @Body() dto: TestWebhookDto,
  ): Promise<TestDeliveryView> {
    return this.actions.test(access.organizationId!, id, dto.event_type ?? DEFAULT_TEST_EVENT);
  }

  @Post('event/:event/resend')
  @HttpCode(200)
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Deliver a stored event to the endpoint again',
    description:
      'A new delivery of the event (same id, fresh signature timestamp) with the whole retry ' +
      'schedule; its first attempt is made at once, in the background. Any event of the ' +
      'caller’s event list, whether or not the endpoint subscribes to its type.',
  })
  @ApiOkResponse({ type: ResendView })
  @ApiErrors([429, SENDS_LIMITED])
  @ApiConflictResponse({ description: 'The endpoint is disabled' })
  @ApiNotFoundResponse({
    description: `${NOT_FOUND}, or an event the caller may not read (no difference is told)`,
  })
  resend(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Param('event') eventId: string,
    @Access() access: AccessContext,
  ): Promise<ResendView> {
    return this.actions.resend(access.organizationId!, id, eventId, eventReaderOf(access));
  }

  @Post('secret/rotate')
  @HttpCode(200)
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Replace the signing secret',
    description:
      'Answers the new secret, shown only here. For 24 hours the replaced secret keeps signing: ' +
      'every delivery carries one `v1` signature per active secret in both `Service-Signature` ' +
      'and `webhook-signature`. At most 5 secrets sign at once (409 beyond).',
  })
  @ApiOkResponse({ type: RotatedSecretView })
  @ApiConflictResponse({ description: '5 secrets are active already' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  rotate(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Access() access: AccessContext,
  ): Promise<RotatedSecretView> {
    return this.endpoints.rotateSecret(access.organizationId!, id);
  }

  @Get('delivery')
  // The receivers' answers are theirs to show to those who run the endpoints, no one else.
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'The endpoint’s delivery attempts, newest first',
    description:
      `Every attempt (test ones included) with the status and the first 1 KiB of the response; ` +
      `for those who may edit the organization (\`canEditOrganization\`). ` +
      `Page with \`after\` (the id of the last attempt seen); \`limit\` 1 to 100, default ` +
      `${DEFAULT_ATTEMPT_LIMIT}. Attempts are kept 30 days.`,
  })
  @ApiOkResponse({ type: AttemptListView })
  @ApiBadRequestResponse({ description: 'limit outside 1..100, after not an attempt of it' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async history(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Access() access: AccessContext,
    @Query() query: ListAttemptsQuery,
  ): Promise<AttemptListView> {
    const data = await this.actions.history(access.organizationId!, id, {
      limit: query.limit ?? DEFAULT_ATTEMPT_LIMIT,
      after: query.after,
    });
    return { data };
  }
}
