import { Controller, Get, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Permission } from '../../common';
import { binaryContent, DOWNLOAD_HEADERS } from '../files/file-download';
import { CsvExportService } from './csv-export.service';

@ApiTags('documents')
@Controller('v1/site')
export class SiteCapTableController {
  constructor(private readonly exports: CsvExportService) {}

  @Get('captable')
  @Permission('canReadSite')
  @ApiOperation({
    summary: 'Every organization’s cap table in one streamed CSV (site administrators)',
    description:
      'Requires canReadSite (site administrators; everyone else 403). The columns of ' +
      '`GET /v1/organization/:organization/captable` led by `organization` (the organization’s id), ' +
      'organization after organization (by id; deleted ones and those without active shareholdings ' +
      'left out), each as its own export would have it: active shareholdings only, its ' +
      '`ownershipPercent` adding up to 100 within the organization, formula cells neutralised. ' +
      'Streamed organization by organization, each in batches: memory stays flat.',
  })
  @ApiOkResponse({
    description:
      '`text/csv; charset=utf-8`, attachment `captable-all-organizations-<today>.csv`, CRLF line ' +
      'ends, a header row (`organization` first)',
    headers: DOWNLOAD_HEADERS,
    content: binaryContent('text/csv'),
  })
  @ApiBadRequestResponse({ description: 'A query parameter: the route takes none `{message}`' })
  async export(@Res() res: Response) {
    await this.exports.site(res);
  }
}
