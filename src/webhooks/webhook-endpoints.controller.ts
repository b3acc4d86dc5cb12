import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, ApiKeyedErrors, EMPTY_OBJECT, Permission } from '../common';
import { CreateWebhookDto, UpdateWebhookDto } from './webhook-endpoint.dto';
import { CreatedWebhookView, WebhookListView, WebhookView } from './webhook-endpoint.view';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/**
 * An endpoint receives every event of its types: who chooses them, or where they go, must read
 * each of them in full (the role's permission of the type's read route, as the event list).
 */
const SUBSCRIPTION_FORBIDDEN =
  'The caller’s role lacks the read ' +
  'permission of an event type the endpoint would cover (`*`: every type of the catalogue; ' +
  '"...OrSelf" permissions count only when held by the role): `{error, message}`, the message ' +
  'naming the first such type in the order given (catalogue order for `*`), e.g. `events: ' +
  'subscribing to valuation.created needs canViewValuation`';

@ApiTags('webhooks')
@Controller('v1/organization/:organization/webhook')
export class WebhookEndpointsController {
  constructor(private readonly webhooks: WebhookEndpointsService) {}

  @Post()
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      'The URL is refused (`webhookUrlNotAllowed`) unless `https` (or `http` outside ' +
      'production) and it is, or its host name resolves only to, global unicast addresses: ' +
      'loopback, private, CGNAT, link-local and unique-local ones only with ' +
      'WEBHOOK_ALLOW_PRIVATE_URLS, cloud metadata addresses and every other special-purpose ' +
      'range (multicast, reserved, documentation, benchmarking, NAT64, 6to4, Teredo, ::/96) ' +
      'never. A refused host name answers `url must resolve to a public address`, whatever it ' +
      'resolved to. An organization has at most 16 endpoints (409 beyond).',
  })
  @ApiCreatedResponse({ type: CreatedWebhookView, description: 'The endpoint with its secret' })
  @ApiForbiddenResponse({ description: SUBSCRIPTION_FORBIDDEN })
  @ApiConflictResponse({ description: 'The organization has 16 endpoints already' })
  @ApiKeyedErrors('webhookUrlNotAllowed', 'invalidFields')
  create(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
    @Body() dto: CreateWebhookDto,
  ): Promise<CreatedWebhookView> {
    return this.webhooks.create(access, dto);
  }

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s webhook endpoints, never their secrets',
    description:
      'Callers without `canEditOrganization` get each `url` reduced to its origin ' +
      '(`scheme://host[:port]`: no user info, path, query or fragment), since URLs often carry ' +
      'credentials.',
  })
  @ApiOkResponse({ type: WebhookListView, description: '`{data: [...]}`, oldest first' })
  async list(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
  ): Promise<WebhookListView> {
    return { data: await this.webhooks.list(access) };
  }

  @Patch(':webhook')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Change url, events, description or active',
    description:
      'A new URL is checked as at registration; `active: true` re-enables. New `events` need ' +
      'the read permission of each type they cover, as at registration; a new `url` alone needs ' +
      'that of each type the endpoint covers (`url: changing where shareholding.created is ' +
      'delivered needs canViewCapitalizationOrSelf`).',
  })
  @ApiOkResponse({ type: WebhookView, description: 'The endpoint afterwards' })
  @ApiForbiddenResponse({ description: SUBSCRIPTION_FORBIDDEN })
  @ApiKeyedErrors('webhookUrlNotAllowed')
  @ApiNotFoundResponse({ description: 'No such endpoint in this organization' })
  update(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Access() access: AccessContext,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookView> {
    return this.webhooks.update(access, id, dto);
  }

  @Delete(':webhook')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Remove a webhook endpoint' })
  @ApiOkResponse({
    schema: EMPTY_OBJECT,
    description: '`{}`: the endpoint is gone (404 afterwards)',
  })
  @ApiNotFoundResponse({ description: 'No such endpoint in this organization' })
  async remove(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Access() access: AccessContext,
  ): Promise<object> {
    await this.webhooks.remove(access.organizationId!, id);
    return {};
  }
}
