import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../common';

@ApiTags('admin')
@Controller('v1/admin')
export class SiteAdminController {
  @Get('test')
  @Permission('canReadSite')
  @ApiOperation({
    summary: 'Is the caller a site admin?',
    description:
      '`{isAdmin: true}` for site admins (granted with `npm run cli -- site-admin:grant <email>`); 403 for others.',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['isAdmin'],
      properties: { isAdmin: { type: 'boolean', enum: [true] } },
    },
  })
  test(): { isAdmin: true } {
    return { isAdmin: true };
  }
}
