import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, PageQuery, Permission } from '../../common';
import { OptionReadsService } from './option-reads.service';
import { OptionView } from './option.view';

@ApiTags('cap table')
@Controller('v1/option/:option')
export class OptionController {
  constructor(private readonly reads: OptionReadsService) {}

  @Get()
  @Permission('canViewOption')
  @ApiOperation({
    summary: 'One option grant (an ISO, NSO, plain option, RSU or SAR of a plan pool)',
    description: 'Roles with `canViewOption`, and the option’s holder.',
  })
  @ApiOkResponse({ description: 'The option, with its vesting today', type: OptionView })
  get(@Param('option') id: string) {
    return this.reads.get(id);
  }
}

@ApiTags('cap table')
@Controller('v1/organization/:organization/option')
export class OrganizationOptionsController {
  constructor(private readonly reads: OptionReadsService) {}

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s options, oldest first (`?limit`, `?offset`)',
    description:
      'A caller whose role lacks `canViewOption` (a Shareholder) sees only the options of their own member records.',
  })
  @ApiOkResponse({ description: 'The options', type: [OptionView] })
  list(@Access() access: AccessContext, @Query() page: PageQuery) {
    return this.reads.ofOrganization(access, page);
  }
}

@ApiTags('cap table')
@Controller('v1/member/:member/options')
export class MemberOptionsController {
  constructor(private readonly reads: OptionReadsService) {}

  @Get()
  @Permission('canViewMember')
  @ApiOperation({
    summary: 'A member’s options, oldest first (`?limit`, `?offset`)',
    description: 'Roles with `canViewMember`, and the member themselves.',
  })
  @ApiOkResponse({ description: 'The member’s options', type: [OptionView] })
  list(@Access() access: AccessContext, @Param('member') member: string, @Query() page: PageQuery) {
    return this.reads.ofMember(access.organizationId!, member, page);
  }
}
