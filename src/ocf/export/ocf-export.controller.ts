import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, AccessContext, Permission } from '../../common';
import { OcfExportQuery } from './ocf-export.dto';
import { OcfExportService } from './ocf-export.service';

@ApiTags('ocf')
@Controller('v1/organization/:organization/ocf')
export class OcfExportController {
  constructor(private readonly exports: OcfExportService) {}

  @Get()
  @Permission('canViewCapTable')
  @ApiOperation({
    summary: 'The cap table as an Open Cap Format 1.2 package (zip), streamed',
    description:
      'Requires canViewCapTable. A zip of `Manifest.ocf.json` (issuer, as-of date, generation ' +
      'time, every file with its MD5) and `Transactions.ocf.json`, `Stakeholders.ocf.json`, ' +
      '`StockClasses.ocf.json`, `StockLegendTemplates.ocf.json`, `StockPlans.ocf.json`, ' +
      '`VestingTerms.ocf.json`, `Valuations.ocf.json`, `Documents.ocf.json`, each valid against ' +
      'the official OCF schemas. Transactions: the equity transaction log in recording order, ' +
      'each with its OCF object_type and our ids as OCF ids; a partial transfer consumes its ' +
      'source and issues a resulting and a balance security (ids derived from the transaction ' +
      'id, UUID v5). What OCF has no field for is in `comments` as `ledgerline:<key>=<JSON>`. ' +
      'The mapping: docs/ocf.md. `?asOf=YYYY-MM-DD` (not in the future): only transactions ' +
      'effective on or before it, objects as they stood then (class, legend, plan and vesting ' +
      'definitions hold whenever recorded, as in every as-of view). Streamed from the database ' +
      'through cursors: 100,000 holdings take flat memory.',
  })
  @ApiOkResponse({
    description:
      '`application/zip`, attachment `<organization name>-ocf-<asOf or today>.zip` (RFC 6266)',
    headers: {
      'Content-Disposition': {
        description: '`attachment` with the file name (`filename` ASCII, `filename*` UTF-8)',
        schema: { type: 'string' },
      },
    },
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  async export(
    @Access() access: AccessContext,
    @Query() query: OcfExportQuery,
    @Res() res: Response,
  ) {
    await this.exports.export(res, access.organizationId!, query);
  }
}
