import { Body, Controller, Delete, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { IdpConfiguredGuard } from '../../auth';
import {
  ApiErrors,
  ApiKeyedErrors,
  Authenticated,
  CurrentUserId,
  SuccessResponse,
} from '../../common';
import { IdpConnections } from './idp-connections.service';
import { CONTACTS_LIMIT, CONTACTS_TTL_MS, IdpContacts } from './idp-contacts.service';
import { IdpConnectDto } from './idp-contacts.dto';
import { IdpAuthUrlView, IdpConnectedView, IdpContactView } from './idp-contacts.view';

const UNAVAILABLE: [number, string] = [
  503,
  'The identity provider did not answer within 10 s or failed (5xx, 429), or the database or ' +
    'the session store is unavailable `{error, message}`; try again',
];

/**
 * The identity provider's contacts to invite (spec 4.8): the caller connects their account
 * (OAuth 2.0 web-server flow) and lists its contacts. While IDP_DRIVE_CLIENT_ID, its secret or
 * IDP_CONTACTS_REDIRECT_URI is unset every route answers 500 `driveNotConfigured` naming it.
 */
@ApiTags('referral')
@Controller('v1/idp')
@UseGuards(IdpConfiguredGuard('contacts'))
export class IdpContactsController {
  constructor(
    private readonly connections: IdpConnections,
    private readonly contacts: IdpContacts,
  ) {}

  @Get('auth-url')
  @Authenticated()
  @ApiOperation({
    summary: 'Where to send the browser to connect the identity provider’s contacts',
    description:
      'The provider’s consent URL (contacts read-only and the account’s e-mail, offline access, ' +
      '`prompt=consent`, PKCE). Its `state` is kept in the session for 10 minutes and one ' +
      '`POST /v1/idp/connect`; a later call replaces it.',
  })
  @ApiOkResponse({ type: IdpAuthUrlView })
  @ApiKeyedErrors('driveNotConfigured')
  authUrl(@Req() req: Request): Promise<IdpAuthUrlView> {
    return this.connections.authUrl(req.session);
  }

  @Post('connect')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Connect the identity provider’s contacts with the code of its redirect',
    description:
      'Exchanges the code for the grant and stores it sealed, replacing the caller’s previous ' +
      'one. 400 when `state` is not the session’s pending one (none, expired, already used: ' +
      'every call uses it up), when the provider refuses the code (`invalid_grant`), or when the ' +
      'contacts permission was not granted.',
  })
  @ApiOkResponse({ type: IdpConnectedView })
  @ApiKeyedErrors('driveNotConfigured', 'invalidFields')
  @ApiErrors(UNAVAILABLE)
  connect(
    @Req() req: Request,
    @CurrentUserId() userId: string,
    @Body() dto: IdpConnectDto,
  ): Promise<IdpConnectedView> {
    return this.connections.connect(req.session, userId, dto.code, dto.state);
  }

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'The caller’s contacts at the identity provider',
    description:
      'One entry per e-mail address (lower-cased, each once), people without one left out, ' +
      'sorted by name (none last) then e-mail; at most 2,000, from at most 10 pages of the ' +
      'provider’s People API. An expired access token is refreshed on the way. 404 ' +
      '`idpNotConnected` when none is connected, or the provider no longer accepts the grant ' +
      '(revoked: it is forgotten). The provider’s answer is kept for the caller ' +
      `${CONTACTS_TTL_MS / 60_000} minutes (connecting or disconnecting forgets it), and at most ` +
      `${CONTACTS_LIMIT.limit} lists a minute are answered per user.`,
  })
  @ApiOkResponse({ type: [IdpContactView] })
  @ApiKeyedErrors('driveNotConfigured', 'idpNotConnected')
  @ApiErrors(UNAVAILABLE, [
    429,
    `More than ${CONTACTS_LIMIT.limit} lists in a minute (\`Retry-After\` in seconds, ` +
      '`X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`: the end of the window ' +
      'as a unix timestamp)',
  ])
  list(@CurrentUserId() userId: string): Promise<IdpContactView[]> {
    return this.contacts.list(userId);
  }

  @Delete()
  @Authenticated()
  @ApiOperation({
    summary: 'Disconnect the identity provider’s contacts',
    description:
      'Forgets the caller’s grant and revokes it at the provider (best effort). `{success: ' +
      'true}` also when none was connected.',
  })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiKeyedErrors('driveNotConfigured')
  disconnect(@CurrentUserId() userId: string): Promise<{ success: true }> {
    return this.connections.disconnect(userId);
  }
}
