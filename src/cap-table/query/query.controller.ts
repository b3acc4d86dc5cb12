import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated } from '../../common';
import { QueryDto } from './query.dto';
import { QueryService } from './query.service';
import { QueryResponseView, QueryResultView } from './query.view';

@ApiTags('cap table')
@ApiExtraModels(QueryResultView)
@Controller('v1/query')
export class QueryController {
  constructor(private readonly queries: QueryService) {}

  @Post()
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Several GET reads of this API in one request (at most 20)',
    description:
      '`{queries: [{id, path}]}` → `{results: {<id>: {status, body}}}`: an object with one ' +
      'answer per read, keyed by its id. Each read runs with the ' +
      'caller’s own session and permissions, so a read the caller may not make answers its 403 or 404 ' +
      'in its result. Only GET paths under /v1 (not /v1/query), of JSON routes: a download or ' +
      'export (the cap table CSV, even `?format=json`, the OCF zip, certificate PDFs, file and ' +
      'document contents: routes documented with a media type of their own) refuses the whole ' +
      'query with 400 `{field: "queries"}` before any read runs; ask for it alone. The reads run ' +
      'four at a time; their answers may add up to QUERY_MAX_RESPONSE_BYTES (default 4 MiB): ' +
      'beyond, no further read starts and the query answers 413 `queryResponseTooLarge` (no partial ' +
      'results).',
  })
  @ApiOkResponse({
    type: QueryResponseView,
    description: 'The answer of each read, under its id',
  })
  @ApiForbiddenResponse({
    description:
      'A cross-site request: an `Origin` that is not the frontend or the API, or `Sec-Fetch-Site: cross-site` `{message}`',
  })
  @ApiUnsupportedMediaTypeResponse({ description: 'A body that is not `application/json`' })
  @ApiResponse({
    status: 400,
    description: 'A bad list, a duplicate id, a path outside /v1, or a download or export route',
  })
  @ApiResponse({
    status: 413,
    description:
      '`queryResponseTooLarge`: the answers add up to more than QUERY_MAX_RESPONSE_BYTES',
  })
  run(@Req() req: Request, @Body() dto: QueryDto): Promise<QueryResponseView> {
    return this.queries.run(req, dto.queries);
  }
}
