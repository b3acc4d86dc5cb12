import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiValidationError, Authenticated } from '../../common';
import { PatchUserStateDto, UserStateResponse, UserStateView } from './user-state.dto';
import { UserStateService } from './user-state.service';

/** The caller's onboarding steps and UI preferences. */
@ApiTags('user')
@Controller('v1/user/state')
export class UserStateController {
  constructor(private readonly state: UserStateService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The caller's state: completed steps and preferences" })
  @ApiOkResponse({ type: UserStateResponse })
  async get(@Req() req: Request): Promise<{ state: UserStateView }> {
    return { state: await this.state.get(req.session.userId!) };
  }

  @Patch()
  @Authenticated()
  @ApiOperation({ summary: 'Replace completedSteps and/or merge preferences key by key' })
  @ApiOkResponse({ type: UserStateResponse })
  @ApiValidationError()
  async patch(
    @Req() req: Request,
    @Body() body: PatchUserStateDto,
  ): Promise<{ state: UserStateView }> {
    return { state: await this.state.patch(req.session.userId!, body) };
  }
}
