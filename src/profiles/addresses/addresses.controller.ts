import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission } from '../../common';
import { UpdateAddressDto } from './address.dto';
import { AddressView } from './address.view';
import { AddressesService } from './addresses.service';

@ApiTags('addresses')
@Controller('v1/address')
export class AddressesController {
  constructor(private readonly addresses: AddressesService) {}

  @Get(':address')
  @Permission('canViewOrganization', { record: 'address', hideForbidden: true })
  @ApiOperation({
    summary: 'One address',
    description:
      'A personal address for its user; an organization’s address for its active members. ' +
      'Any other address answers 404, so ids cannot be probed.',
  })
  @ApiOkResponse({ type: AddressView })
  @ApiBadRequestResponse({ description: 'address is not a UUID' })
  get(@Param('address') id: string): Promise<AddressView> {
    return this.addresses.get(id);
  }

  @Patch(':address')
  @Permission('canUpdateRecord(Addresses)', { record: 'address' })
  @ApiOperation({
    summary: 'Update an address',
    description:
      'A personal address by its user; an organization’s address by members with canEditOrganization.',
  })
  @ApiOkResponse({ type: AddressView, description: 'The address as it now stands' })
  @ApiBadRequestResponse({ description: 'Invalid field (country must be ISO 3166-1 alpha-2...)' })
  update(@Param('address') id: string, @Body() dto: UpdateAddressDto): Promise<AddressView> {
    return this.addresses.update(id, dto);
  }
}
