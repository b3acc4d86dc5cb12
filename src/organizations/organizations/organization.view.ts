import { ApiProperty } from '@nestjs/swagger';
import {
  DOCUMENT_STORES,
  DocumentStore,
  Organization,
  ORGANIZATION_TYPES,
  OrganizationType,
} from './organization.entity';

/** An organization: a company whose cap table is kept here. */
export class OrganizationView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** Display name. */
  name: string;
  /** Registered legal name, when it differs. */
  legalName: string | null;
  /** ISO 3166-1 alpha-2 country of incorporation. */
  @ApiProperty({ type: String, example: 'US' })
  country: string | null;
  /** ISO 4217 currency of the cap table. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ enum: ORGANIZATION_TYPES })
  type: OrganizationType;
  /** Where its documents live: the data room or the productivity-suite store. */
  @ApiProperty({ enum: DOCUMENT_STORES })
  documentStore: DocumentStore;
  /** The organization's legal entity (`/v1/entity/:entity/...`). */
  @ApiProperty({ format: 'uuid' })
  entity: string;
  /** The registered-office address (`/v1/address/:address`). */
  @ApiProperty({ type: String, format: 'uuid' })
  address: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
  @ApiProperty({ format: 'date-time' })
  updated: string;
}

export const toOrganizationView = (o: Organization): OrganizationView => ({
  id: o.id,
  name: o.name,
  legalName: o.legalName,
  country: o.country,
  currency: o.currency,
  type: o.type,
  documentStore: o.documentStore,
  entity: o.entityId,
  address: o.addressId,
  created: o.created.toISOString(),
  updated: o.updated.toISOString(),
});
