import { Body, Controller, Get, Param, Post, Res, UploadedFiles } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, AccessContext, ApiKeyedErrors, Multipart, Permission } from '../../common';
import { sendStoredFile, storedFileResponse } from './file-download';
import type { Upload } from './file-store.service';
import { OrganizationFileFields } from './files.dto';
import { FilesService } from './files.service';
import { FileRecordView } from './stored-file.view';

const DOWNLOAD =
  'Content-Type of the file, Content-Length, RFC 6266/5987 Content-Disposition with its stored name, X-Content-Type-Options: nosniff. A deleted file → 404.';
const VIEWERS =
  'Requires `canViewFile`: members whose role has it in the file’s organization (Viewer and up), or the file’s uploader; a profile’s file only its own user (403 for anyone else). ' +
  'A data room document also requires `canViewDocuments`, an imported cap table (CSV import) `canViewCapTable`, in the caller’s role, whoever uploaded it (403).';

@ApiTags('documents')
@Controller('v1/organization/:organization')
export class OrganizationFilesController {
  constructor(private readonly files: FilesService) {}

  @Post('file')
  @Permission('canEditDocuments', { bodyRecords: { plan: 'plan', holding: 'holding' } })
  @Multipart({ maxFileBytes: (env) => env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024 })
  @ApiOperation({
    summary: 'Upload a file of the organization (a plan document, a grant agreement...)',
    description:
      'Requires `canEditDocuments`. One file in the field `file` (at most ' +
      'STORAGE_UPLOAD_SIZE_LIMIT_MB: 413); optional fields `plan` and `holding` link it to a plan ' +
      'or holding of the organization (another organization’s or unknown → 404), whose holders ' +
      'then find it in `GET /v1/incentive/documents` (a plan’s documents: every grantee of the ' +
      'plan). Both at once: the holding must be a grant of that plan (else 400 naming `holding`). ' +
      'Emits `document.uploaded` (object: the file record).',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary' },
        plan: { type: 'string', format: 'uuid' },
        holding: { type: 'string', format: 'uuid' },
      },
    },
  })
  @ApiCreatedResponse({ type: FileRecordView, description: 'The file record' })
  @ApiKeyedErrors('missingFileArgument', 'unsupportedFileExtension')
  @ApiPayloadTooLargeResponse({ description: 'The file is over STORAGE_UPLOAD_SIZE_LIMIT_MB' })
  upload(
    @Access() access: AccessContext,
    @UploadedFiles() uploads: Upload[] | undefined,
    @Body() fields: OrganizationFileFields,
  ) {
    return this.files.uploadForOrganization(access, uploads, fields);
  }
}

@ApiTags('documents')
@Controller('v1/file/:file')
export class FileContentController {
  constructor(private readonly files: FilesService) {}

  @Get('content')
  @Permission('canViewFile', { record: 'file' })
  @ApiOperation({
    summary: 'Download a file',
    description: `${VIEWERS} Always \`Content-Disposition: attachment\`. ${DOWNLOAD}`,
  })
  @ApiOkResponse(storedFileResponse('The file’s bytes, in its own content type'))
  async attachment(
    @Access() access: AccessContext,
    @Param('file') id: string,
    @Res() res: Response,
  ) {
    const { file, bytes } = await this.files.content(access, id);
    sendStoredFile(res, file, bytes, 'attachment');
  }

  @Get('content/:name')
  @Permission('canViewFile', { record: 'file' })
  @ApiOperation({
    summary: 'View a file inline',
    description:
      `${VIEWERS} \`Content-Disposition: inline\` for PDFs and raster images only; anything ` +
      'else is still an attachment. `:name` only gives the URL a last segment; the download keeps ' +
      `the file’s stored name. ${DOWNLOAD}`,
  })
  @ApiOkResponse(storedFileResponse('The file’s bytes, in its own content type'))
  async inline(@Access() access: AccessContext, @Param('file') id: string, @Res() res: Response) {
    const { file, bytes } = await this.files.content(access, id);
    sendStoredFile(res, file, bytes, 'inline');
  }
}
