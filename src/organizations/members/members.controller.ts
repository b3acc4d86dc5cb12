import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, Permission } from '../../common/http/access.decorators';
import { Access, AccessContext, CurrentUserId } from '../permissions/access-context';
import { AcceptInvitationDto, AddMemberDto, InviteMemberDto, UpdateMemberDto } from './member.dto';
import { MemberUploadService } from './member-upload.service';
import { MembersService } from './members.service';

@ApiTags('members')
@Controller('v1/organization')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly uploads: MemberUploadService,
  ) {}

  @Get(':organization/member')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'Active and invited members',
    description: 'Roles without `canViewMember` (Shareholder) see only their own member record.',
  })
  list(@Access() access: AccessContext) {
    return this.members.list(access);
  }

  @Post(':organization/member')
  @Permission('canEditOrganization')
  @ApiOperation({ summary: 'Add a person, with or without a user account (linked by e-mail)' })
  @ApiCreatedResponse({ description: 'The member' })
  @ApiConflictResponse({ description: 'Already a member' })
  add(@Access() access: AccessContext, @Body() dto: AddMemberDto) {
    return this.members.add(access, dto);
  }

  @Post(':organization/member/invite')
  @Permission('canEditOrganization')
  @ApiOperation({
    summary:
      'Invite by e-mail: mails a single-use token valid 7 days; the member is `invited` until accepted',
  })
  @ApiCreatedResponse({ description: 'The invited member' })
  invite(@Access() access: AccessContext, @Body() dto: InviteMemberDto) {
    return this.members.invite(access, dto);
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
    return this.members.update(access, memberId, dto);
  }

  @Delete(':organization/member/:member')
  @Permission('canEditOrganization')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (soft); the last Owner cannot be removed: 409' })
  @ApiNoContentResponse()
  remove(@Access() access: AccessContext, @Param('member') memberId: string) {
    return this.members.remove(access, memberId);
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
    return this.members.accept(userId, dto.token);
  }

  @Post('member/upload')
  @Permission('canEditOrganization', { body: 'organization' })
  @ApiOperation({
    summary: 'Create members from a CSV file (columns name, email, role, title), all or nothing',
    description:
      'Any bad row → 400 `{error, message, errors: [{row, column, reason}]}` and nothing is created. Row 1 is the header.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['organization', 'file'],
      properties: {
        organization: { type: 'string', format: 'uuid' },
        file: { type: 'string', format: 'binary' },
      },
    },
  })
  @ApiCreatedResponse({ description: 'The created members' })
  upload(@Access() access: AccessContext, @Req() req: Request) {
    const files = (req.files as Express.Multer.File[] | undefined) ?? [];
    return this.uploads.upload(access, files[0]);
  }
}
