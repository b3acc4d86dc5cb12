import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, ApiKeyedErrors, EMPTY_OBJECT, Permission } from '../common';
import { CreateWebhookDto, UpdateWebhookDto } from './webhook-endpoint.dto';
import { CreatedWebhookView, WebhookListView, WebhookView } from './webhook-endpoint.view';
import { WebhookEndpointsService } from './webhook-endpoints.service';

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
  @ApiConflictResponse({ description: 'The organization has 16 endpoints already' })
  @ApiKeyedErrors('webhookUrlNotAllowed', 'invalidFields')
  create(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
    @Body() dto: CreateWebhookDto,
  ): Promise<CreatedWebhookView> {
    return this.webhooks.create(access.organizationId!, dto);
  }

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'The organization’s webhook endpoints, never their secrets' })
  @ApiOkResponse({ type: WebhookListView, description: '`{data: [...]}`, oldest first' })
  async list(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
  ): Promise<WebhookListView> {
    return { data: await this.webhooks.list(access.organizationId!) };
  }

  @Patch(':webhook')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Change url, events, description or active',
    description: 'A new URL is checked as at registration; `active: true` re-enables.',
  })
  @ApiOkResponse({ type: WebhookView, description: 'The endpoint afterwards' })
  @ApiKeyedErrors('webhookUrlNotAllowed')
  @ApiNotFoundResponse({ description: 'No such endpoint in this organization' })
  update(
    @Param('organization') _organization: string,
    @Param('webhook') id: string,
    @Access() access: AccessContext,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookView> {
    return this.webhooks.update(access.organizationId!, id, dto);
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
