import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated } from '../../common';
import { QueryDto } from './query.dto';
import { QueryService } from './query.service';

@ApiTags('cap table')
@Controller('v1/query')
export class QueryController {
  constructor(private readonly queries: QueryService) {}

  @Post()
  @Authenticated()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Several GET reads of this API in one request (at most 20)',
    description:
      '`{queries: [{id, path}]}` → `{results: {<id>: {status, body}}}`. Each read runs with the ' +
      'caller’s own session and permissions, so a read the caller may not make answers its 403 or 404 ' +
      'in its result. Only GET paths under /v1 (not /v1/query).',
  })
  @ApiOkResponse({ description: '{results: {<id>: {status, body}}}' })
  run(@Req() req: Request, @Body() dto: QueryDto) {
    return this.queries.run(req, dto.queries);
  }
}
