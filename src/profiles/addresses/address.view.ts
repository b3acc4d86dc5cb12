import { Address } from './address.entity';

export interface AddressView {
  id: string;
  /** The user of a personal address. */
  user: string | null;
  /** The organization of a registered-office address. */
  organization: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  created: string;
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
