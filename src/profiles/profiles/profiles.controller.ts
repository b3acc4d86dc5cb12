import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentUserId, Permission } from '../../common';
import { UpdateProfileDto } from './profile.dto';
import { OwnProfileView, ProfileView, PublicProfileView } from './profile.view';
import { ProfilesService } from './profiles.service';

@ApiTags('profiles')
@ApiExtraModels(PublicProfileView, OwnProfileView)
@Controller('v1/profile')
export class ProfilesController {
  constructor(private readonly profiles: ProfilesService) {}

  @Get(':profile')
  @Authenticated()
  @ApiOperation({
    summary: 'A profile',
    description: 'Any logged-in user may read a profile; phone and address only its own user.',
  })
  @ApiOkResponse({
    description: 'The profile; with `phone` and `address` when it is the caller’s own',
    schema: {
      anyOf: [{ $ref: getSchemaPath(OwnProfileView) }, { $ref: getSchemaPath(PublicProfileView) }],
    },
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
  @ApiOkResponse({ type: OwnProfileView, description: 'The profile as it now stands' })
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
