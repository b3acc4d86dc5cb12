import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  Access,
  AccessContext,
  Authenticated,
  CachedList,
  CurrentUserId,
  ListResponder,
  Multipart,
  Permission,
} from '../../common';
import { InvitationsService } from './invitations.service';
import { AcceptInvitationDto, AddMemberDto, InviteMemberDto, UpdateMemberDto } from './member.dto';
import { MemberAdditionsService } from './member-additions.service';
import { MemberChangesService } from './member-changes.service';
import { MEMBER_LIST, MembersService } from './members.service';

const MEMBER_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

@ApiTags('members')
@Controller('v1/organization')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly additions: MemberAdditionsService,
    private readonly changes: MemberChangesService,
    private readonly invitations: InvitationsService,
    private readonly lists: ListResponder,
  ) {}

  @Get(':organization/member')
  @Permission('canViewOrganization')
  @CachedList(MEMBER_LIST)
  @ApiOperation({
    summary: 'Active and invited members',
    description: 'Roles without `canViewMember` (Shareholder) see only their own member record.',
  })
  @ApiOkResponse({
    description:
      '`[{id, organization, user, entity, name, email, title, role, status, created, updated}]`, oldest first. ' +
      'With an `ETag`; `If-None-Match` answers 304 while nothing changed.',
  })
  list(@Access() access: AccessContext, @Req() req: Request, @Res() res: Response) {
    return this.lists.send(req, res, access, MEMBER_LIST, () => this.members.list(access));
  }

  @Get(':organization/member/:member')
  @Permission('canViewMember')
  @ApiOperation({
    summary: 'One member',
    description: 'Roles with `canViewMember`, and the member themselves.',
  })
  get(@Access() access: AccessContext, @Param('member') memberId: string) {
    return this.members.get(access, memberId);
  }

  @Post(':organization/member')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary: 'Record a person in the organization',
    description:
      'Links no user account, whatever the e-mail (the answer is the same for an address with ' +
      'and without an account); a registered user joins only by accepting an invitation.',
  })
  @ApiCreatedResponse({ description: 'The member' })
  @ApiConflictResponse({ description: 'Already a member' })
  add(@Access() access: AccessContext, @Body() dto: AddMemberDto) {
    return this.additions.add(access, dto);
  }

  @Post(':organization/member/invite')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary:
      'Invite by e-mail: mails a single-use token valid 7 days; the member is `invited` until accepted',
  })
  @ApiCreatedResponse({ description: 'The invited member' })
  invite(@Access() access: AccessContext, @Body() dto: InviteMemberDto) {
    return this.invitations.invite(access, dto);
  }

  @Patch(':organization/member/:member')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary:
      'Change name, title or role (only an Owner grants or changes Owner; the last Owner cannot be demoted: 409)',
  })
  update(
    @Access() access: AccessContext,
    @Param('member') memberId: string,
    @Body() dto: UpdateMemberDto,
  ) {
    return this.changes.update(access, memberId, dto);
  }

  @Delete(':organization/member/:member')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Remove a member (soft); the last Owner cannot be removed: 409' })
  @ApiOkResponse({
    description:
      'The member as it now stands (status "removed"): `{id, organization, user, entity, name, email, title, role, status, created, updated}`',
  })
  remove(@Access() access: AccessContext, @Param('member') memberId: string) {
    return this.changes.remove(access, memberId);
  }

  @Post('invitation/accept')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation as the logged-in user the invitation was sent to',
  })
  @ApiBadRequestResponse({ description: 'Unknown or expired token' })
  @ApiConflictResponse({ description: 'Token already used, or already a member' })
  accept(@CurrentUserId() userId: string, @Body() dto: AcceptInvitationDto) {
    return this.invitations.acceptToken(userId, dto.token);
  }

  @Post('member/upload')
  @Permission('canEditOrganization', { body: 'organization' })
  @Multipart({ maxFileBytes: () => MEMBER_UPLOAD_LIMIT_BYTES })
  @ApiOperation({
    summary: 'Record members from a CSV file (columns name, email, role, title), all or nothing',
    description:
      'Requires `canEditOrganization` in the organization named by `?organization=` or by the ' +
      'form field `organization` (both: they must be equal, else 400). Prefer the query string: ' +
      'the permission is then decided before the file is read (401/403/404 without reading it). ' +
      'With the form field alone, a caller who may edit no organization at all is refused (403) ' +
      'before the file is read, anyone else once the form is read. The file (field `file`) is at ' +
      'most 10 MB (413). Each row goes through the rules of `POST .../member`. Any bad row → 400 ' +
      '`{error, message, errors: [{row, column, reason}]}` and nothing is created. Row 1 is the header.',
  })
  @ApiQuery({
    name: 'organization',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description: 'The organization (instead of, or equal to, the form field)',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        organization: { type: 'string', format: 'uuid' },
        file: { type: 'string', format: 'binary' },
      },
    },
  })
  @ApiCreatedResponse({ description: 'The created members' })
  @ApiPayloadTooLargeResponse({ description: 'The file is over 10 MB' })
  upload(@Access() access: AccessContext, @Req() req: Request) {
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    return this.additions.upload(access, files[0]);
  }
}
