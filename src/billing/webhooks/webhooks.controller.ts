import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { CsrfExempt, EMPTY_OBJECT, Machine, RawBody } from '../../common';
import { WebhooksService } from './webhooks.service';

@ApiTags('billing')
@Controller('v1/billing/webhook')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(200)
  // Signed bytes: the signature is checked by the access guard before the form is parsed.
  @Machine('billingSignature')
  @RawBody()
  @CsrfExempt('the billing provider’s webhook; signed with the site shared key (HMAC-SHA256)')
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'The billing provider’s webhooks',
    description:
      'Form-encoded `id`, `event`, `payload[...]`, signed in `X-Chargify-Webhook-Signature-Hmac-Sha-256`. ' +
      'Handled once per webhook id (a repeat answers 200 and changes nothing); a subscription’s ' +
      'state applies unless older than the one held.',
  })
  @ApiOkResponse({ description: '`{}`: received', schema: EMPTY_OBJECT })
  @ApiBadRequestResponse({
    description:
      'No `id` or `event`, an `X-Chargify-Webhook-Id` other than the body’s `id`, or a form key ' +
      'with a `__proto__`, `constructor` or `prototype` segment; nothing changed',
  })
  @ApiUnauthorizedResponse({
    description: 'Not signed with the site shared key, or billing is off `{error, key, message}`',
  })
  @ApiTooManyRequestsResponse({
    description:
      '10 unsigned or wrongly signed webhooks from one client address within 15 minutes: every ' +
      'webhook from it until the window ends (`Retry-After`, `X-RateLimit-*`)',
  })
  async receive(
    @Req() req: Request,
    @Headers('x-chargify-webhook-id') id: string | undefined,
  ): Promise<Record<string, never>> {
    // Empty when the request had no body (signed as such, or the guard would have refused it).
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    await this.webhooks.receive(raw, id);
    return {};
  }
}
