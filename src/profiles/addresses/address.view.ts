import { ApiProperty } from '@nestjs/swagger';
import { Address } from './address.entity';

/** A postal address: a user's personal address or an organization's registered office. */
export class AddressView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** The user of a personal address. */
  @ApiProperty({ type: String, format: 'uuid' })
  user: string | null;
  /** The organization of a registered-office address. */
  @ApiProperty({ type: String, format: 'uuid' })
  organization: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  /** State, province or county. */
  region: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2, upper-case. */
  @ApiProperty({ type: String, example: 'US' })
  country: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
  @ApiProperty({ format: 'date-time' })
  updated: string;
}

export const toAddressView = (a: Address): AddressView => ({
  id: a.id,
  user: a.userId,
  organization: a.organizationId,
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  region: a.region,
  postalCode: a.postalCode,
  country: a.country,
  created: a.created.toISOString(),
  updated: a.updated.toISOString(),
});
