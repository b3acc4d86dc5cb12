export { OrganizationsModule } from './organizations.module';
export { SiteAdminModule } from './site-admin/site-admin.module';
export { SiteAdminService, UnknownUserError } from './site-admin/site-admin.service';
export {
  BUILT_IN_ROLES,
  ORGANIZATION_EQUIVALENT,
  OWN_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  SELF_PERMISSIONS,
} from './permissions/permissions';
export type { PermissionName } from './permissions/permissions';
export {
  audienceOf,
  EVENT_AUDIENCE,
  eventReaderOf,
  firstUnreadableType,
} from './permissions/event-audience';
export type { Audience } from './permissions/event-audience';
export {
  memberUserSql,
  membersOfUserSql,
  OrganizationsDirectory,
  userMembersSql,
} from './directory/organizations.directory';
export type {
  EntityMembership,
  MemberFacts,
  MemberListing,
  OrganizationFacts,
} from './directory/organizations.directory';
export { HolderMembers } from './members/holder-members.service';
export type { KnownHolders, NewHolder } from './members/holder-members.service';
export { OrganizationsService } from './organizations/organizations.service';
export { CreateOrganizationDto } from './organizations/organization.dto';
export { DOCUMENT_STORES } from './organizations/organization.entity';
export type { DocumentStore } from './organizations/organization.entity';
export { OrganizationDocumentsRegistry } from './organizations/organization-documents';
export type { OrganizationDocuments } from './organizations/organization-documents';
export type { OrganizationView } from './organizations/organization.view';
export { SystemMembers } from './members/system-members.service';
export type { SystemAccountRef } from './members/system-members.service';
