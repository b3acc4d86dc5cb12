import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, Permission } from '../../common/http/access.decorators';
import { CurrentUserId } from '../permissions/access-context';
import { UpdateAddressDto } from './address.dto';
import { AddressView } from './address.view';
import { AddressesService } from './addresses.service';

@ApiTags('addresses')
@Controller('v1/address')
export class AddressesController {
  constructor(private readonly addresses: AddressesService) {}

  @Get(':address')
  @Authenticated()
  @ApiOperation({
    summary: 'One address',
    description:
      'A personal address for its user; an organization’s address for its active members. ' +
      'Any other address answers 404.',
  })
  @ApiBadRequestResponse({ description: 'address is not a UUID' })
  @ApiNotFoundResponse({ description: 'No such address, or not visible to the caller' })
  get(@CurrentUserId() userId: string, @Param('address') id: string): Promise<AddressView> {
    return this.addresses.get(userId, id);
  }

  @Patch(':id')
  @Permission('canUpdateRecord(Addresses)', { record: 'address', param: 'id' })
  @ApiOperation({
    summary: 'Update an address',
    description:
      'A personal address by its user; an organization’s address by members with canEditOrganization.',
  })
  @ApiBadRequestResponse({ description: 'Invalid field (country must be ISO 3166-1 alpha-2...)' })
  @ApiNotFoundResponse({ description: 'No such address' })
  update(
    @CurrentUserId() userId: string,
    @Param('id') id: string,
    @Body() dto: UpdateAddressDto,
  ): Promise<AddressView> {
    return this.addresses.update(userId, id, dto);
  }
}
