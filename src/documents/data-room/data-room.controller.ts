import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UploadedFiles,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
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
  ApiErrors,
  ApiKeyedErrors,
  ListResponder,
  defineList,
  Multipart,
  Permission,
} from '../../common';
import { DocumentStores } from '../document-stores.service';
import { sendStoredFile, storedFileResponse } from '../files/file-download';
import type { Upload } from '../files/file-store.service';
import {
  CreateFolderDto,
  DataRoomUploadFields,
  DeleteEntryQuery,
  ListDocumentsQuery,
  MoveEntryDto,
} from './data-room.dto';
import { DataRoomEntryView } from './data-room.view';

/**
 * Every member who may list the data room sees the same list. Not `@CachedList`: the
 * conditional-read shortcut cannot tell the organization's store (the suite's list is never cached).
 */
/** Files one upload may carry (each up to DATA_ROOM_UPLOAD_SIZE_LIMIT_MB, in memory). */
const MAX_FILES_PER_UPLOAD = 10;

const DOCUMENT_LIST = defineList({
  list: 'document',
  tables: ['document'],
  audience: () => 'all',
});

const DISABLED =
  'Served by the organization’s `documentStore`: `dataRoom` (absent when NODE_ENV=production: ' +
  '404 like an unknown path) or `suite`, the productivity-suite store (SharePoint/OneDrive, ' +
  'when configured), whose entries look the same.';
/** The suite store asks `canViewOrganization` to read content (spec 4.4); the data room its own. */
const SUITE_VIEW = { suite: 'canViewOrganization' };
const PARENT_FOLDER =
  '`parentFolder` of another organization, deleted or unknown → 404; a file → 400.';
const CONTENT =
  'Content-Type of the file, Content-Length, RFC 6266/5987 Content-Disposition named after the entry (its current name), X-Content-Type-Options: nosniff. A folder has no content: 404.';

/** The form and answers of an upload into the organization's document store (one or many). */
const UploadResponses = () =>
  applyDecorators(
    ApiBody({
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: { type: 'array', items: { type: 'string', format: 'binary' } },
          parentFolder: { type: 'string', format: 'uuid' },
        },
      },
    }),
    ApiCreatedResponse({
      type: [DataRoomEntryView],
      description: 'The new entries, in upload order',
    }),
    ApiKeyedErrors('missingFileArgument', 'unsupportedFileExtension'),
    ApiConflictResponse({
      description: 'A name is taken in the folder (whatever its case), or repeated in the request',
    }),
    ApiPayloadTooLargeResponse({ description: 'A file is over DATA_ROOM_UPLOAD_SIZE_LIMIT_MB' }),
  );

@ApiTags('documents')
@Controller('v1/organization/:organization')
export class DataRoomController {
  constructor(
    private readonly stores: DocumentStores,
    private readonly lists: ListResponder,
  ) {}

  @Get('document')
  @Permission('canViewOrganization', { documentStore: {} })
  @ApiOperation({
    summary: 'The data room’s documents and folders',
    description:
      'Requires `canViewOrganization` (a Shareholder sees the names, but reading content needs ' +
      '`canViewDocuments`). Without `?parentFolder` the whole tree, flat: each entry names its ' +
      'parent folder. `?parentFolder=<folder id>` lists one folder, `?parentFolder=root` the top ' +
      'level (an unknown folder → 404, a file → 400). Folders first, then by name. With an ETag ' +
      '(the data room’s). ' +
      DISABLED,
  })
  @ApiOkResponse({
    type: [DataRoomEntryView],
    description: 'The entries (folders first, then by name)',
    headers: {
      ETag: {
        description: 'The list’s version (when LIST_CACHE is on): send it as `If-None-Match`',
        schema: { type: 'string' },
      },
    },
  })
  @ApiQuery({
    name: 'parentFolder',
    required: false,
    description: 'A folder id, or `root` for the top level',
    // Not the `uuid` format the plugin reads from the DTO's @IsUUID: `root` is accepted too.
    schema: {
      type: 'string',
      pattern:
        '^(root|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
    },
  })
  @ApiResponse({
    status: 304,
    description: '`If-None-Match` named the current ETag: the caller’s copy is current (no body)',
  })
  list(
    @Access() access: AccessContext,
    @Query() query: ListDocumentsQuery,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    if (this.stores.inSuite(access)) {
      return this.stores.list(access, query).then((json) => res.type('json').send(json));
    }
    return this.lists.send(req, res, access, DOCUMENT_LIST, () => this.stores.list(access, query));
  }

  @Post('document')
  @Permission('canEditDocuments', { bodyRecords: { parentFolder: 'document' }, documentStore: {} })
  @Multipart({
    maxFileBytes: (env) => env.DATA_ROOM_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024,
    maxFiles: MAX_FILES_PER_UPLOAD,
  })
  @ApiOperation({
    summary: 'Upload files into the organization’s store',
    description:
      'Requires `canEditDocuments`. Data room: one or more files (at most 10) in the repeated ' +
      'field `file`; suite store: one file (several: `POST document/many`, else 400). ' +
      'optional field `parentFolder` (the top level without it). Each file at most ' +
      'DATA_ROOM_UPLOAD_SIZE_LIMIT_MB (413). All or nothing: a name already in the folder ' +
      '(whatever its case) or repeated in the request → 409 and nothing is stored. Emits ' +
      '`document.uploaded` per file (object: the entry and its organization). ' +
      PARENT_FOLDER +
      ' ' +
      DISABLED,
  })
  @UploadResponses()
  upload(
    @Access() access: AccessContext,
    @UploadedFiles() files: Upload[] | undefined,
    @Body() fields: DataRoomUploadFields,
  ) {
    return this.stores.upload(access, files, fields.parentFolder ?? null);
  }

  @Post('document/many')
  @Permission('canEditDocuments', {
    bodyRecords: { parentFolder: 'document' },
    documentStore: { suiteOnly: true },
  })
  @Multipart({
    maxFileBytes: (env) => env.DATA_ROOM_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024,
    maxFiles: MAX_FILES_PER_UPLOAD,
  })
  @ApiOperation({
    summary: 'Upload several files into the productivity-suite store',
    description:
      'Requires `canEditDocuments`. Organizations whose `documentStore` is `suite` only (any ' +
      'other: 404 like an unknown path). One or more files (at most 10) in the repeated field ' +
      '`file`, optional field `parentFolder` (the top level without it). Each file at most ' +
      'DATA_ROOM_UPLOAD_SIZE_LIMIT_MB (413); files over 4 MiB go to the drive in an upload ' +
      'session. A name already in the folder (whatever its case) or repeated in the request → 409 ' +
      'and nothing is stored. Emits `document.uploaded` per file. ' +
      PARENT_FOLDER,
  })
  @UploadResponses()
  uploadMany(
    @Access() access: AccessContext,
    @UploadedFiles() files: Upload[] | undefined,
    @Body() fields: DataRoomUploadFields,
  ) {
    return this.stores.upload(access, files, fields.parentFolder ?? null, true);
  }

  @Get('document/:document/content')
  @Permission('canViewDocuments', { record: 'document', documentStore: SUITE_VIEW })
  @ApiOperation({
    summary: 'Download a document',
    description: `Requires \`canViewDocuments\` (suite store: \`canViewOrganization\`). Always \`Content-Disposition: attachment\`. ${CONTENT} ${DISABLED}`,
  })
  @ApiOkResponse(storedFileResponse('The file’s bytes, in its own content type'))
  async attachment(
    @Access() access: AccessContext,
    @Param('document') id: string,
    @Res() res: Response,
  ) {
    const content = await this.stores.content(access, id);
    sendStoredFile(res, content.file, content.bytes, 'attachment', content.name);
  }

  @Get('document/:document/content/:name')
  @Permission('canViewDocuments', { record: 'document', documentStore: SUITE_VIEW })
  @ApiOperation({
    summary: 'View a document inline',
    description:
      'Requires `canViewDocuments` (suite store: `canViewOrganization`). `Content-Disposition: inline` for PDFs and raster images only; ' +
      'anything else (text, office files, HTML, SVG) is still an attachment. `:name` only gives ' +
      `the URL a last segment to save under; it is not checked. ${CONTENT} ${DISABLED}`,
  })
  @ApiOkResponse(storedFileResponse('The file’s bytes, in its own content type'))
  async inline(
    @Access() access: AccessContext,
    @Param('document') id: string,
    @Res() res: Response,
  ) {
    const content = await this.stores.content(access, id);
    sendStoredFile(res, content.file, content.bytes, 'inline', content.name);
  }

  @Post('folder')
  @Permission('canEditDocuments', { bodyRecords: { parentFolder: 'document' }, documentStore: {} })
  @ApiOperation({
    summary: 'Create a folder',
    description: `Requires \`canEditDocuments\`. \`{name, parentFolder}\` (null or left out: the top level). A name taken in the folder → 409. Emits \`folder.created\`. ${PARENT_FOLDER} ${DISABLED}`,
  })
  @ApiCreatedResponse({ type: DataRoomEntryView, description: 'The new folder' })
  @ApiConflictResponse({ description: 'The name is taken in the folder (whatever its case)' })
  createFolder(@Access() access: AccessContext, @Body() dto: CreateFolderDto) {
    return this.stores.createFolder(access, dto);
  }

  @Post('document/:document/move')
  @HttpCode(200)
  @Permission('canEditDocuments', {
    record: 'document',
    bodyRecords: { parentFolder: 'document' },
    documentStore: {},
  })
  @ApiOperation({
    summary: 'Move and/or rename a document or folder',
    description:
      'Requires `canEditDocuments`. `{name, parentFolder}`: parentFolder null moves to the top ' +
      'level, left out keeps the folder. 409: the name is taken in the destination, or a folder ' +
      'would move into itself or one of its subfolders. A file keeps its type: a new extension ' +
      'that would change its content type → 400. Emits `document.moved` with the previous ' +
      `name/parentFolder (nothing when nothing changes). ${PARENT_FOLDER} ${DISABLED}`,
  })
  @ApiOkResponse({ type: DataRoomEntryView, description: 'The entry as it is now' })
  @ApiConflictResponse({
    description:
      'The name is taken in the destination, or a folder would move into its own subtree',
  })
  move(@Access() access: AccessContext, @Param('document') id: string, @Body() dto: MoveEntryDto) {
    return this.stores.move(access, id, dto);
  }

  @Delete('document/:document')
  @Permission('canEditDocuments', { record: 'document', documentStore: {} })
  @ApiOperation({
    summary: 'Delete a document or folder',
    description:
      'Requires `canEditDocuments`. Data room: a soft delete (the entry and its file disappear ' +
      'from every route; the bytes stay in storage); suite store: deleted in the drive (its ' +
      'recycle bin). A folder with entries → 409 unless `?recursive=true`, ' +
      'which deletes its whole subtree. Emits one `document.deleted` for the addressed entry ' +
      `(its description counts what was inside). ${DISABLED}`,
  })
  @ApiOkResponse({
    description: '`{}`: the entry (and its subtree) is gone (404 afterwards)',
    schema: { type: 'object', additionalProperties: false },
  })
  @ApiConflictResponse({ description: 'A non-empty folder without ?recursive=true' })
  @ApiErrors([400, '`recursive` is not true or false'])
  async remove(
    @Access() access: AccessContext,
    @Param('document') id: string,
    @Query() query: DeleteEntryQuery,
  ): Promise<object> {
    await this.stores.remove(access, id, query.recursive === true);
    return {};
  }
}
