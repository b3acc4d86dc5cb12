import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUserId, Permission } from '../../common';
import { UpdateProfileDto } from './profile.dto';
import { OwnProfileView, ProfileView } from './profile.view';
import { ProfilesService } from './profiles.service';

@ApiTags('profiles')
@Controller('v1/profile')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  @Get(':profile')
  @Authenticated()
  @ApiOperation({
    summary: 'A profile',
    description: 'Any logged-in user may read a profile; phone and address only its own user.',
  })
  @ApiBadRequestResponse({ description: 'profile is not a UUID' })
  @ApiNotFoundResponse({ description: 'No such profile' })
  get(@CurrentUserId() userId: string, @Param('profile') id: string): Promise<ProfileView> {
    return this.profiles.get(userId, id);
  }

  @Patch(':profile')
  @Permission('canUpdateProfile', { record: 'profile' })
  @ApiOperation({
    summary: 'Update one’s own profile',
    description: 'Only the profile’s own user.',
  })
  @ApiBadRequestResponse({
    description: 'Invalid field (phone, locale, timezone, avatarFileId...)',
  })
  update(
    @CurrentUserId() userId: string,
    @Param('profile') id: string,
    @Body() dto: UpdateProfileDto,
  ): Promise<OwnProfileView> {
    return this.profiles.update(userId, id, dto);
  }
}
