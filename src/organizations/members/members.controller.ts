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
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiResponse,
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
import { MemberView } from './member.view';

const MEMBER_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

const BAD_ROLE = 'Invalid field, or a role the organization does not have';
const OWNER_ONLY = 'Only an Owner grants the Owner role or changes an Owner';

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
    type: [MemberView],
    description:
      'The members (`active` and `invited`), oldest first. With an `ETag`; `If-None-Match` ' +
      'answers 304 while nothing changed.',
  })
  @ApiResponse({ status: 304, description: 'Not modified: the `If-None-Match` copy is current' })
  list(@Access() access: AccessContext, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.lists.send(req, res, access, MEMBER_LIST, () => this.members.list(access));
  }

  @Get(':organization/member/:member')
  @Permission('canViewMember')
  @ApiOperation({
    summary: 'One member',
    description: 'Roles with `canViewMember`, and the member themselves.',
  })
  @ApiOkResponse({ type: MemberView })
  get(@Access() access: AccessContext, @Param('member') memberId: string): Promise<MemberView> {
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
  @ApiCreatedResponse({ type: MemberView, description: 'The member (`active`, no user)' })
  @ApiBadRequestResponse({ description: BAD_ROLE })
  @ApiForbiddenResponse({ description: OWNER_ONLY })
  @ApiConflictResponse({ description: 'A current member already has this e-mail address' })
  add(@Access() access: AccessContext, @Body() dto: AddMemberDto): Promise<MemberView> {
    return this.additions.add(access, dto);
  }

  @Post(':organization/member/invite')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary:
      'Invite by e-mail: mails a single-use token valid 7 days; the member is `invited` until accepted',
  })
  @ApiCreatedResponse({
    type: MemberView,
    description:
      'The invited member (`invited`; an existing member not yet active keeps its record)',
  })
  @ApiBadRequestResponse({ description: BAD_ROLE })
  @ApiForbiddenResponse({ description: OWNER_ONLY })
  @ApiConflictResponse({ description: 'The address is already an active member’s account' })
  invite(@Access() access: AccessContext, @Body() dto: InviteMemberDto): Promise<MemberView> {
    return this.invitations.invite(access, dto);
  }

  @Patch(':organization/member/:member')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary:
      'Change name, title or role (only an Owner grants or changes Owner; the last Owner cannot be demoted: 409)',
  })
  @ApiOkResponse({ type: MemberView, description: 'The member as it now stands' })
  @ApiBadRequestResponse({ description: BAD_ROLE })
  @ApiForbiddenResponse({ description: OWNER_ONLY })
  @ApiConflictResponse({ description: 'The last Owner would be demoted' })
  update(
    @Access() access: AccessContext,
    @Param('member') memberId: string,
    @Body() dto: UpdateMemberDto,
  ): Promise<MemberView> {
    return this.changes.update(access, memberId, dto);
  }

  @Delete(':organization/member/:member')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Remove a member (soft); the last Owner cannot be removed: 409' })
  @ApiOkResponse({ type: MemberView, description: 'The member as it now stands (`removed`)' })
  @ApiForbiddenResponse({ description: OWNER_ONLY })
  @ApiConflictResponse({ description: 'The member is the last active Owner' })
  remove(@Access() access: AccessContext, @Param('member') memberId: string): Promise<MemberView> {
    return this.changes.remove(access, memberId);
  }

  @Post('invitation/accept')
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation as the logged-in user the invitation was sent to',
  })
  @ApiOkResponse({ type: MemberView, description: 'The caller’s member record, now `active`' })
  @ApiBadRequestResponse({
    description: 'Unknown, expired, declined or withdrawn token, or the organization is gone',
  })
  @ApiForbiddenResponse({
    description:
      'The caller’s e-mail address is not verified, or the invitation was sent to another',
  })
  @ApiConflictResponse({ description: 'Token already used, or already a member' })
  accept(@CurrentUserId() userId: string, @Body() dto: AcceptInvitationDto): Promise<MemberView> {
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
  @ApiCreatedResponse({ type: [MemberView], description: 'The created members, in row order' })
  @ApiBadRequestResponse({
    description:
      'No file (`missingFileArgument`), not a .csv file (`unsupportedFileExtension`), not valid ' +
      'CSV, bad columns, no rows or over 5,000, organization given twice and different, or bad ' +
      'rows: `{error, message, errors: [{row, column, reason}]}`',
  })
  @ApiPayloadTooLargeResponse({ description: 'The file is over 10 MB' })
  upload(@Access() access: AccessContext, @Req() req: Request): Promise<MemberView[]> {
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    return this.additions.upload(access, files[0]);
  }
}
