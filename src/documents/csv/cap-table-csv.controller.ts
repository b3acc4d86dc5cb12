import { Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access, AccessContext, ApiKeyedErrors, Multipart, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { binaryContent, DOWNLOAD_HEADERS, sendStoredFile } from '../files/file-download';
import { CapTableExportQuery, ImportQuery, ImportTemplateQuery } from './csv.dto';
import { CapTableRowView, CsvImportResultView } from './csv.view';
import { CsvExportService } from './csv-export.service';
import { CsvImportService } from './csv-import.service';
import { IMPORT_TEMPLATE } from './import-template';

const COLUMNS =
  '`holderName, holderEmail, security, classType, quantity, pricePerShare, issueDate, certificateNumber, status, ownershipPercent`';
const ROW_ERRORS =
  '`{error, message, rows: [{row, column, reason}], rowErrorCount}`: the errors of every row, by row (the first 1,000 listed in `rows`, `rowErrorCount` counts them all; row 1 is the first row after the header, 0 the header; column null when the row as a whole is at fault: too many cells, broken quoting); `key: "insufficientShares"` is added when a row needs more shares than its class has unissued';

@ApiTags('documents')
@ApiExtraModels(CapTableRowView)
@Controller('v1/organization/:organization')
export class CapTableCsvController {
  constructor(
    private readonly exports: CsvExportService,
    private readonly imports: CsvImportService,
  ) {}

  @Get('captable')
  @Permission('canViewCapTable')
  @ApiOperation({
    summary: 'The cap table as CSV (or JSON), one row per active shareholding, streamed',
    description:
      `Requires canViewCapTable. Columns ${COLUMNS}. Only active shareholdings (voided and fully ` +
      'transferred ones are history, not the cap table); ordered by class name, then certificate ' +
      'number (issuance order), so an import of the file numbers the certificates as they were. ' +
      '`ownershipPercent` is each row’s share of the shares the rows hold (the issued shares), 4 ' +
      'decimals, by the largest-remainder method: the column adds up to exactly 100. Cells beginning ' +
      "with `=`, `+`, `-`, `@`, tab or CR get a `'` in front against spreadsheet formula injection " +
      '(the number columns are never negative, so only text is touched; not in JSON). ' +
      '`?format=json`: a JSON array of the same rows (decimals as strings, holderEmail and ' +
      'pricePerShare null when absent). `?asOf=YYYY-MM-DD` (not in the future): as replayed from ' +
      'the log, as the dashboard does; default: everything recorded. Streamed from the database in ' +
      'batches, so 100,000 rows take flat memory (an `asOf` replay is held in memory).',
  })
  @ApiOkResponse({
    description:
      '`text/csv; charset=utf-8`, attachment `captable-<organization name>-<date (asOf or today)>.csv`, ' +
      'CRLF line ends, a header row; with `?format=json` the JSON array of the rows',
    headers: DOWNLOAD_HEADERS,
    content: {
      ...binaryContent('text/csv'),
      'application/json': {
        schema: { type: 'array', items: { $ref: getSchemaPath(CapTableRowView) } },
      },
    },
  })
  async export(
    @Access() access: AccessContext,
    @Query() query: CapTableExportQuery,
    @Res() res: Response,
  ) {
    await this.exports.organization(res, access.organizationId!, query);
  }

  @Get('import')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The CSV import template, or with `?file=` a file imported earlier',
    description:
      'The template: any member (the spec names no permission, and the template shows nothing of ' +
      'the organization). `?file=`: canViewCapTable as well (an import file is the cap table), ' +
      'else 403. ' +
      `The template: the header row (${COLUMNS}) and one example row, attachment ` +
      '`captable-import-template.csv`. `?file=<id>`: that file as it was uploaded, as an attachment; ' +
      '404 unless it is an import file of this organization.',
  })
  @ApiOkResponse({
    description: '`text/csv; charset=utf-8`, as an attachment',
    headers: DOWNLOAD_HEADERS,
    content: binaryContent('text/csv'),
  })
  async template(
    @Access() access: AccessContext,
    @Query() query: ImportTemplateQuery,
    @Res() res: Response,
  ) {
    if (!query.file) {
      return this.exports.sendText(res, 'captable-import-template.csv', IMPORT_TEMPLATE);
    }
    const { file, bytes } = await this.imports.importedFile(access, query.file);
    sendStoredFile(res, file, bytes, 'attachment');
  }

  @Post('import')
  @Idempotent()
  @Permission('canEditCapTable')
  @Multipart({ maxFileBytes: (env) => env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024 })
  @ApiOperation({
    summary: 'Import a cap table CSV: every row issued as shares, all or nothing',
    description:
      `Requires canEditCapTable. One \`.csv\` file in the field \`file\`, columns ${COLUMNS} in ` +
      'any order (`status` and `ownershipPercent` may be left out; their values are ignored, as is ' +
      '`certificateNumber`, except that it gives a new class its prefix: certificates are numbered ' +
      'from the class prefix in file order, so an exported file imported into an empty organization ' +
      'exports again byte for byte). Every row is checked first; then all rows are applied in one ' +
      'database transaction that also stores the file (purpose import, see `GET .../import?file=`). ' +
      'Holders: the current member with the row’s e-mail address, else (no address) the one member ' +
      'of that name (several → row error), else a new member (a Shareholder without an account; one ' +
      'per address, or per name among rows without one). Classes: the class of that exact name (its ' +
      'type must match), else a new class with the row’s type, authorized for exactly the shares the ' +
      'file issues from it. Each row becomes a stock issuance (default legends, as `POST .../shareholding`); ' +
      'fractional quantities only for an LLC. Events: `member.added` per new member, `security.created` ' +
      'per new class, one `shareholding.imported`. `?dryRun=true` does all of it and rolls back: 200, ' +
      'nothing changed. Over STORAGE_UPLOAD_SIZE_LIMIT_MB, or more than CSV_IMPORT_MAX_ROWS rows ' +
      '(default 200,000, the header aside; reading stops there) → 413, nothing changed. One import ' +
      'per organization at a time, CSV or OCF, dry runs included: while another runs, in any process ' +
      `of the service, 409 \`importInProgress\`. ${ROW_ERRORS}.`,
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({
    type: CsvImportResultView,
    description: 'Imported: the stored file and what the rows added',
  })
  @ApiOkResponse({
    type: CsvImportResultView,
    description:
      'Dry run (`?dryRun=true`): `file` null and what the rows would add; nothing changed',
  })
  @ApiKeyedErrors('missingFileArgument', 'unsupportedFileExtension', 'insufficientShares')
  @ApiBadRequestResponse({ description: `Rows that cannot be imported: ${ROW_ERRORS}` })
  @ApiConflictResponse({
    description:
      '`importInProgress`: another import (CSV or OCF, a dry run too) into this organization is running; try again when it has finished',
  })
  @ApiPayloadTooLargeResponse({
    description:
      'The file is over STORAGE_UPLOAD_SIZE_LIMIT_MB, or has more than CSV_IMPORT_MAX_ROWS rows (the header aside; nothing imported)',
  })
  async import(
    @Access() access: AccessContext,
    @Query() query: ImportQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.imports.import(
      access,
      req.files as Express.Multer.File[] | undefined,
      query.dryRun === true,
    );
    res.status(query.dryRun ? 200 : 201);
    return result;
  }
}
