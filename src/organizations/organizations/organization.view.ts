import { Organization, OrganizationType } from './organization.entity';

export interface OrganizationView {
  id: string;
  name: string;
  legalName: string | null;
  country: string | null;
  currency: string;
  type: OrganizationType;
  entity: string;
  address: string | null;
  created: string;
  updated: string;
}

export const toOrganizationView = (o: Organization): OrganizationView => ({
  id: o.id,
  name: o.name,
  legalName: o.legalName,
  country: o.country,
  currency: o.currency,
  type: o.type,
  entity: o.entityId,
  address: o.addressId,
  created: o.created.toISOString(),
  updated: o.updated.toISOString(),
});
