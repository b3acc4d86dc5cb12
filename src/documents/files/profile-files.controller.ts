import { Controller, Param, Post, UploadedFiles } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyedErrors, CurrentUserId, Multipart, Permission } from '../../common';
import type { Upload } from './file-store.service';
import { FilesService } from './files.service';
import { FileRecordView } from './stored-file.view';

@ApiTags('documents')
@Controller('v1/profile/:profile')
export class ProfileFilesController {
  constructor(private readonly files: FilesService) {}

  @Post('file')
  @Permission('canUpdateProfile', { record: 'profile' })
  @Multipart({ maxFileBytes: (env) => env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024 })
  @ApiOperation({
    summary: 'Upload a file of one’s own profile; an image becomes the avatar',
    description:
      'Requires `canUpdateProfile`: only the profile’s own user (403 for anyone else). One file in ' +
      'the field `file` (at most STORAGE_UPLOAD_SIZE_LIMIT_MB: 413). A PNG, JPEG, GIF or WebP ' +
      'image becomes the profile’s avatar (`avatarFileId` of `GET /v1/profile/:profile`; its ' +
      'bytes at `/v1/file/<avatarFileId>/content/<name>`). The file belongs to the user alone ' +
      '(organization null): only they can read it. No event (no organization).',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({
    type: FileRecordView,
    description: 'The file record (`organization` null: the file is the user’s)',
  })
  @ApiKeyedErrors('missingFileArgument', 'unsupportedFileExtension')
  @ApiPayloadTooLargeResponse({ description: 'The file is over STORAGE_UPLOAD_SIZE_LIMIT_MB' })
  upload(
    @CurrentUserId() userId: string,
    @Param('profile') profileId: string,
    @UploadedFiles() uploads: Upload[] | undefined,
  ) {
    return this.files.uploadForProfile(userId, profileId, uploads);
  }
}
