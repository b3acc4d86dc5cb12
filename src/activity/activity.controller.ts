import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../common';
import { CreateActionDto, ListActionsQuery } from './activity.dto';
import { ActivityActionView } from './activity.view';
import { ActivityService } from './activity.service';

@ApiTags('activity')
@Controller('v1/organization/:organization/action')
export class ActivityController {
  constructor(private readonly activity: ActivityService) {}

  @Post()
  @Permission('canViewOrganization')
  @ApiOperation({ summary: 'Write an entry in the organization’s activity log' })
  @ApiBadRequestResponse({
    description:
      'type not in dot notation, description empty or over 2000 characters, metadata not an object or over 16 KB',
  })
  @ApiCreatedResponse({ type: ActivityActionView, description: 'The entry written' })
  @ApiNotFoundResponse({ description: 'No such organization' })
  create(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
    @Body() dto: CreateActionDto,
  ): Promise<ActivityActionView> {
    return this.activity.record(access.organizationId!, access.userId, dto);
  }

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s activity log, newest first',
    description:
      'Page with `before` (the id of the last entry seen); filter with a `type` prefix such as `member.`.\n\n' +
      'Each entry has an audience, fixed when it is written, and the list holds only the entries ' +
      'the caller may read (so `limit` counts those):\n' +
      '- an entry derived from a domain event needs the permission of the read route of the record ' +
      'it carries: `canViewCapitalizationOrSelf` for shareholdings, `canViewHolding` for grants, ' +
      'notes and SAFEs, `canViewOption` for exercises, `canViewValuation`, `canViewMember` for ' +
      'members and invitations, `canViewCapTable` for legends, capital changes and imports, ' +
      '`canViewDocuments` for documents, `canViewOrganization` for the organization, roles, ' +
      'classes, plans and vesting schedules;\n' +
      '- the member an entry is about (the holder of a shareholding, grant or exercise; the member ' +
      'of a member entry) sees it without that permission, as the record’s own routes show it to ' +
      'them. A transfer carries both holders’ shareholdings, so only the permission shows it;\n' +
      '- entries written with `POST` reach everyone with `canViewOrganization`.\n\n' +
      'A `type` prefix narrows this set and never widens it; `before` must be an entry the caller ' +
      'may read.',
  })
  @ApiBadRequestResponse({
    description: 'limit outside 1..1000, before not an entry of this organization, bad type prefix',
  })
  @ApiOkResponse({ type: [ActivityActionView], description: 'The entries, newest first' })
  @ApiNotFoundResponse({ description: 'No such organization' })
  list(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
    @Query() query: ListActionsQuery,
  ): Promise<ActivityActionView[]> {
    return this.activity.list(access, query);
  }
}
