import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
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
      'in its result. Only GET paths under /v1 (not /v1/query).',
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
  run(@Req() req: Request, @Body() dto: QueryDto): Promise<QueryResponseView> {
    return this.queries.run(req, dto.queries);
  }
}
