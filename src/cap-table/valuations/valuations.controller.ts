import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, AccessContext, Permission } from '../../common';
import { Idempotent } from '../../idempotency';
import { PutValuationDto } from './valuation.dto';
import { ValuationView } from './valuation.view';
import { ValuationsService } from './valuations.service';

@ApiTags('cap table')
@Controller('v1')
export class ValuationsController {
  constructor(private readonly valuations: ValuationsService) {}

  @Put('valuation')
  @Idempotent()
  @Permission('canEdit', {
    body: 'organization',
    bodyRecords: { id: 'valuation', reportFile: 'file' },
  })
  @ApiOperation({
    summary: 'Record a valuation, or update one (`id`)',
    description:
      'canEdit in the body’s organization. Answers 200 whether the valuation was created ' +
      '(no `id`) or updated (spec section 7 lists 200 and 201 only; a PUT answers 200). ' +
      '`reportFile` must be a file of the organization (404 otherwise).',
  })
  @ApiOkResponse({
    type: ValuationView,
    description: 'The valuation as recorded (created or updated)',
  })
  @ApiNotFoundResponse({
    description:
      '`security` is not a class of the organization, `reportFile` not a file of it, or `id` not ' +
      'one of its valuations',
  })
  put(@Access() access: AccessContext, @Body() dto: PutValuationDto): Promise<ValuationView> {
    return this.valuations.put(access, dto);
  }

  @Get('organization/:organization/valuation')
  @Permission('canViewCapTable')
  @ApiOperation({ summary: 'The valuations, latest first' })
  @ApiOkResponse({
    type: [ValuationView],
    description: 'The valuations, latest effective date first',
  })
  list(@Access() access: AccessContext): Promise<ValuationView[]> {
    return this.valuations.list(access.organizationId!);
  }

  @Get('valuation/:valuation')
  @Permission('canViewValuation')
  @ApiOperation({ summary: 'One valuation' })
  @ApiOkResponse({ type: ValuationView })
  get(@Param('valuation') id: string): Promise<ValuationView> {
    return this.valuations.get(id);
  }
}
