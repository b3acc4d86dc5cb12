import { Controller, Get } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUserId } from '../../common';
import { FilesService } from './files.service';
import { FileRecordView } from './stored-file.view';

@ApiTags('documents')
@Controller('v1/incentive')
export class IncentiveDocumentsController {
  constructor(private readonly files: FilesService) {}

  @Get('documents')
  @Authenticated()
  @ApiOperation({
    summary: 'The documents of one’s own equity incentives',
    description:
      'Any logged-in user (spec: no permission), across organizations: the files linked (by ' +
      '`POST /v1/organization/:organization/file`) to a holding of one of their member records, ' +
      'and those linked to a plan in which they hold a grant. Removed memberships, deleted ' +
      'organizations, plans and files are left out. Oldest first.',
  })
  @ApiOkResponse({ type: [FileRecordView], description: 'The file records, oldest first' })
  @ApiBadRequestResponse({ description: 'A query parameter: the route takes none `{message}`' })
  list(@CurrentUserId() userId: string) {
    return this.files.incentiveDocuments(userId);
  }
}
