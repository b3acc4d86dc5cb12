/**
 * The one table of who may do what. Every permission name the spec uses is here, and the built-in
 * roles' grants are decided here and nowhere else.
 */
export const PERMISSIONS = [
  'canViewOrganization',
  'canEditOrganization',
  'canEditOrganizationBilling',
  'canEditEntityBilling',
  'canViewCapTable',
  'canEditCapTable',
  'canViewCapitalizationOrSelf',
  'canViewHolding',
  'canEditHolding',
  'canEditPlan',
  'canViewPool',
  'canViewOption',
  'canViewOptionOld',
  'canEditExerciseOption',
  'canEdit',
  'canViewValuation',
  'canViewMember',
  'canEditDocuments',
  'canViewDocuments',
  'canViewFile',
  'canUpdateProfile',
  'canUpdateRecord(Addresses)',
  'canReadSite',
  // Not in the spec's tables: deleting an organization is the Owner's alone.
  'canDeleteOrganization',
] as const;

/** Permissions of this table that the spec does not name (spec:check reports them as ours). */
export const OWN_PERMISSIONS: ReadonlySet<string> = new Set(['canDeleteOrganization']);

export type PermissionName = (typeof PERMISSIONS)[number];

/** Granted to the person a record belongs to, whatever their role (spec: "...OrSelf"). */
export const SELF_PERMISSIONS: ReadonlySet<PermissionName> = new Set([
  'canViewCapitalizationOrSelf',
  'canViewHolding',
  'canViewOption',
  'canViewOptionOld',
  'canViewMember',
  'canViewFile',
  'canEditEntityBilling',
  'canUpdateProfile',
  'canUpdateRecord(Addresses)',
]);

/** Decided by ownership of a personal record or by site administration, never by an org role. */
export const NON_ROLE_PERMISSIONS: ReadonlySet<PermissionName> = new Set([
  'canUpdateProfile',
  'canUpdateRecord(Addresses)',
  'canReadSite',
]);

/** Only the built-in Owner role holds these; a custom role cannot carry them. */
export const OWNER_ONLY_PERMISSIONS: ReadonlySet<PermissionName> = new Set([
  'canDeleteOrganization',
]);

/** Permissions a custom role may carry. */
export const ROLE_PERMISSIONS = PERMISSIONS.filter(
  (p) => !NON_ROLE_PERMISSIONS.has(p) && !OWNER_ONLY_PERMISSIONS.has(p),
);

/**
 * On a record of an organization, a personal-record permission means the organization-level one:
 * an organization's address is changed by those who may edit the organization.
 */
export const ORGANIZATION_EQUIVALENT: Partial<Record<PermissionName, PermissionName>> = {
  'canUpdateRecord(Addresses)': 'canEditOrganization',
};

const VIEW: PermissionName[] = [
  'canViewOrganization',
  'canViewCapTable',
  'canViewCapitalizationOrSelf',
  'canViewHolding',
  'canViewPool',
  'canViewOption',
  'canViewOptionOld',
  'canViewValuation',
  'canViewMember',
  'canViewDocuments',
  'canViewFile',
];

const EDIT_CAP_TABLE: PermissionName[] = [
  'canEditCapTable',
  'canEditHolding',
  'canEditPlan',
  'canEditExerciseOption',
  'canEdit',
  'canEditDocuments',
];

const EVERYTHING: PermissionName[] = [
  ...VIEW,
  ...EDIT_CAP_TABLE,
  'canEditOrganization',
  'canEditOrganizationBilling',
  'canEditEntityBilling',
];

export type BuiltInRoleKey = 'owner' | 'admin' | 'editor' | 'viewer' | 'shareholder';

export interface BuiltInRole {
  key: BuiltInRoleKey;
  id: string;
  name: string;
  description: string;
  permissions: readonly PermissionName[];
}

/** Fixed ids, so built-in roles are the same rows in every database (seeded by migration). */
export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  {
    key: 'owner',
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Owner',
    description: 'Everything, including billing, granting or revoking Owner and deletion',
    permissions: [...EVERYTHING, 'canDeleteOrganization'],
  },
  {
    key: 'admin',
    id: '00000000-0000-4000-8000-000000000002',
    name: 'Admin',
    description: 'Everything but granting or revoking Owner',
    permissions: EVERYTHING,
  },
  {
    key: 'editor',
    id: '00000000-0000-4000-8000-000000000003',
    name: 'Editor',
    description:
      'Sees everything and edits the cap table and documents; not members, roles or billing',
    permissions: [...VIEW, ...EDIT_CAP_TABLE],
  },
  {
    key: 'viewer',
    id: '00000000-0000-4000-8000-000000000004',
    name: 'Viewer',
    description: 'Sees the whole organization and cap table; changes nothing',
    permissions: VIEW,
  },
  {
    key: 'shareholder',
    id: '00000000-0000-4000-8000-000000000005',
    name: 'Shareholder',
    description: 'Sees the organization and only their own holdings, options and files',
    permissions: ['canViewOrganization'],
  },
];

export const OWNER_ROLE_ID = BUILT_IN_ROLES[0].id;
export const builtInRole = (id: string) => BUILT_IN_ROLES.find((r) => r.id === id);
export const isPermissionName = (p: string): p is PermissionName =>
  (PERMISSIONS as readonly string[]).includes(p);
