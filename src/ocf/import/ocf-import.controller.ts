import { Controller, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access, AccessContext, ApiKeyedErrors, Multipart, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { OcfImportQuery } from './ocf-import.dto';
import { OcfImportService } from './ocf-import.service';
import { OcfImportResultView } from './ocf-import.view';

@ApiTags('ocf')
@Controller('v1/organization/:organization')
export class OcfImportController {
  constructor(private readonly imports: OcfImportService) {}

  @Post('ocf')
  @Idempotent()
  @Permission('canEditCapTable')
  @Multipart({ maxFileBytes: (env) => env.STORAGE_UPLOAD_SIZE_LIMIT_MB * 1024 * 1024 })
  @ApiOperation({
    summary: 'Import an Open Cap Format package (zip) into an empty cap table, all or nothing',
    description:
      'Requires canEditCapTable. One zip in the field `file` holding `Manifest.ocf.json` (at its root ' +
      'or in one folder) and the files it lists. The cap table must be empty: no transaction in its ' +
      'log (so no class, legend, shareholding, plan, vesting schedule, valuation, grant, warrant or ' +
      'convertible); members do not count. Otherwise 409 `capTableNotEmpty`. One import per ' +
      'organization at a time, OCF or CSV, dry runs included (they parse and replay as much): while ' +
      'another runs, in any process of the service, 409 `importInProgress` and nothing is read. ' +
      'Every file is checked against the manifest first (its MD5: a file that differs is a problem ' +
      'and is not parsed), then against the OCF schemas, every number against what the ledger holds ' +
      '(at most 28 digits before the point), every reference resolved, and the ' +
      'transactions replayed in date order (file order within a date) through the ledger: any problem ' +
      'answers 400 `{error, key: "invalidFields", message, problems: [{file, path, reason}]}` listing ' +
      'all of them (`key: "insufficientShares"` when the database write runs a holding or class short), ' +
      'and nothing changes. Stakeholders become members: the current member with the first e-mail ' +
      'address of the stakeholder, else a new member (a Shareholder without an account). Ids are new; ' +
      'a transfer’s resulting security becomes the transferee’s holding, its balance security stays ' +
      'the source holding. What has no counterpart (transaction types, fields, comments) is listed in ' +
      '`warnings`, never dropped silently. The zip: at most 1,000 entries, OCF_IMPORT_MAX_ENTRY_MB ' +
      '(default 8) MiB an entry and OCF_IMPORT_MAX_TOTAL_MB (default 32) MiB in all once inflated, ' +
      'counted as they inflate; a file of at most OCF_IMPORT_MAX_OBJECTS_PER_FILE (default 100,000) ' +
      'objects, and 10,000 JSON values in one object, counted on its bytes before it is parsed; ' +
      'entries with `..`, absolute paths or backslashes are refused. Past one of these limits the ' +
      'answer is the same 400 `invalidFields` with a problem naming the entry (and the path of the ' +
      'list or object), not 413: the upload is within its own limit, and what is wrong is the ' +
      'package, which the problems list describes; reading stops there and nothing changes. Over ' +
      'STORAGE_UPLOAD_SIZE_LIMIT_MB → 413. `?dryRun=true` does all of it and rolls back: 200.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({
    type: OcfImportResultView,
    description: 'Imported: what the package brought in, and what it could not keep',
  })
  @ApiOkResponse({
    type: OcfImportResultView,
    description: 'Dry run (`?dryRun=true`): what it would import, `dryRun: true`; nothing changed',
  })
  @ApiKeyedErrors('missingFileArgument', 'invalidFields', 'insufficientShares')
  @ApiBadRequestResponse({
    description:
      'The package cannot be imported: `{error, key: "invalidFields" (or "insufficientShares"), message, problems: [{file, path, reason}]}` listing every problem (the zip’s limits, schemas, MD5s, references, the replay)',
  })
  @ApiConflictResponse({
    description:
      '`capTableNotEmpty`: the organization already has a cap table; `importInProgress`: another import (OCF or CSV, a dry run too) into this organization is running, try again when it has finished',
  })
  @ApiPayloadTooLargeResponse({ description: 'The upload is over STORAGE_UPLOAD_SIZE_LIMIT_MB' })
  async import(
    @Access() access: AccessContext,
    @Query() query: OcfImportQuery,
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
