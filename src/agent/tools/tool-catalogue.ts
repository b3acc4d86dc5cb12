import type { PermissionName } from '../../organizations';

/** What a tool does to the records: reads run at once, writes and destructive ones may wait. */
export const TOOL_KINDS = ['read', 'write', 'destructive'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];
export type ToolMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One tool of the agent: a route of the API, run as the person asking. `path` is the route as the
 * OpenAPI document names it (`{param}`); `{organization}` is always the chat's organization, never
 * an input. `ids` names the other path parameters' inputs by their record kind (a shareholding's
 * path calls it `holding`). Routes taking the organization in the body or query get it there.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  kind: ToolKind;
  permission: PermissionName;
  method: ToolMethod;
  path: string;
  ids?: Record<string, string>;
  organizationIn?: 'body' | 'query';
  /**
   * A route of the organization's document store (spec 4.4): in production only a suite
   * organization has it (the data room is absent there), so only there is it offered.
   */
  documentStore?: true;
}

const read = (
  name: string,
  path: string,
  permission: PermissionName,
  description: string,
  extra: Partial<ToolDefinition> = {},
): ToolDefinition => ({
  name,
  description,
  kind: 'read',
  permission,
  method: 'GET',
  path,
  ...extra,
});

const ORG = '/v1/organization/{organization}';

/** The catalogue (issue 23): part of the contract, in the order `GET .../agent/tools` lists it. */
export const TOOLS: readonly ToolDefinition[] = [
  read(
    'get_organization',
    ORG,
    'canViewOrganization',
    'The organization: name, legal name, country, currency, type.',
  ),
  read(
    'get_dashboard',
    '/v1/captable/{organization}/dashboard',
    'canViewOrganization',
    'The cap table summary: classes, holders, fully diluted figures; `asOf` (a date) for a past day.',
  ),
  {
    name: 'project_vesting',
    description: 'When a quantity vests under a stored or given vesting schedule.',
    kind: 'read',
    permission: 'canViewOrganization',
    method: 'POST',
    path: '/v1/schedule/project',
  },
  read('list_members', `${ORG}/member`, 'canViewOrganization', 'The members with their roles.'),
  read('list_share_classes', `${ORG}/security`, 'canViewOrganization', 'The share classes.'),
  read(
    'list_shareholdings',
    `${ORG}/shareholding`,
    'canViewCapitalizationOrSelf',
    'The shareholdings (who holds how many shares of which class).',
  ),
  read(
    'list_blocks',
    `${ORG}/block`,
    'canViewCapitalizationOrSelf',
    'The share blocks (certificated lots).',
  ),
  read('list_plans', `${ORG}/plan`, 'canViewOrganization', 'The equity incentive plans.'),
  read(
    'list_pools',
    '/v1/captable/{organization}/pool',
    'canViewOrganization',
    'The plans’ pools.',
  ),
  read('list_options', `${ORG}/option`, 'canViewOrganization', 'The option grants.'),
  read(
    'list_holdings',
    `${ORG}/holding`,
    'canViewCapTable',
    'Grants, warrants, convertible notes and SAFEs of the organization.',
  ),
  read(
    'list_valuations',
    `${ORG}/valuation`,
    'canViewCapTable',
    'The valuations (409A and others).',
  ),
  read(
    'list_vesting_schedules',
    '/v1/vestingSchedule',
    'canViewOrganization',
    'The vesting schedules.',
    { organizationIn: 'query' },
  ),
  read('list_legends', `${ORG}/legend`, 'canViewCapTable', 'The certificate legends.'),
  read(
    'list_documents',
    `${ORG}/document`,
    'canViewOrganization',
    'The organization’s documents and folders (its data room or productivity-suite store).',
    { documentStore: true },
  ),
  read('list_activity', `${ORG}/action`, 'canViewOrganization', 'The activity log, newest first.'),

  write(
    'create_share_class',
    'POST',
    `${ORG}/security`,
    'canEditCapTable',
    'Creates a share class.',
  ),
  write(
    'add_authorized_shares',
    'POST',
    `${ORG}/security/{security}/shares`,
    'canEditCapTable',
    'Raises a class’s authorized shares.',
    { ids: { security: 'share_class' } },
  ),
  write(
    'issue_shares',
    'POST',
    `${ORG}/shareholding`,
    'canEditCapTable',
    'Issues shares to a holder.',
  ),
  write(
    'transfer_shares',
    'POST',
    `${ORG}/shareholding/transfer`,
    'canEditCapTable',
    'Transfers shares from one holder to another.',
  ),
  write(
    'create_plan',
    'POST',
    `${ORG}/plan`,
    'canEditCapTable',
    'Creates an equity incentive plan.',
  ),
  write('create_pool', 'POST', '/v1/plan/{plan}/pool', 'canEditPlan', 'Adds a pool to a plan.', {
    ids: { plan: 'plan' },
  }),
  write(
    'grant_option',
    'POST',
    '/v1/holding',
    'canEdit',
    'Grants options (or RSUs, SARs) from a plan’s pool.',
    {
      organizationIn: 'body',
    },
  ),
  write(
    'create_convertible',
    'POST',
    '/v1/holding',
    'canEdit',
    'Records a convertible note or SAFE.',
    {
      organizationIn: 'body',
    },
  ),
  write(
    'create_vesting_schedule',
    'POST',
    '/v1/vestingSchedule',
    'canEditCapTable',
    'Creates a vesting schedule.',
    { organizationIn: 'body' },
  ),
  write(
    'record_valuation',
    'PUT',
    '/v1/valuation',
    'canEdit',
    'Records (or replaces) a valuation.',
    {
      organizationIn: 'body',
    },
  ),
  write(
    'exercise_option',
    'POST',
    '/v1/plan/{plan}/pool/{pool}/option/{option}/exercise',
    'canEditExerciseOption',
    'Exercises vested options into shares.',
    { ids: { plan: 'plan', pool: 'pool', option: 'option' } },
  ),
  write(
    'invite_member',
    'POST',
    `${ORG}/member/invite`,
    'canEditOrganization',
    'Invites a person by e-mail.',
  ),
  write(
    'update_member',
    'PATCH',
    `${ORG}/member/{member}`,
    'canEditOrganization',
    'Changes a member’s name, title or role.',
    {
      ids: { member: 'member' },
    },
  ),
  write(
    'create_legend',
    'POST',
    `${ORG}/legend`,
    'canEditCapTable',
    'Creates a certificate legend.',
  ),

  destructive(
    'void_shareholding',
    'DELETE',
    '/v1/shareholding/{holding}',
    'canEditHolding',
    'Voids a shareholding.',
    {
      holding: 'shareholding',
    },
  ),
  destructive(
    'delete_share_class',
    'DELETE',
    `${ORG}/security/{security}`,
    'canEditCapTable',
    'Deletes a share class without shares.',
    {
      security: 'share_class',
    },
  ),
  destructive(
    'delete_plan',
    'DELETE',
    '/v1/plan/{plan}',
    'canEditPlan',
    'Deletes a plan without grants.',
    {
      plan: 'plan',
    },
  ),
  destructive(
    'delete_holding',
    'DELETE',
    '/v1/holding/{holding}',
    'canEditHolding',
    'Deletes a grant, warrant or convertible.',
    {
      holding: 'holding',
    },
  ),
  destructive(
    'delete_legend',
    'DELETE',
    `${ORG}/legend/{legend}`,
    'canEditCapTable',
    'Deletes a legend.',
    {
      legend: 'legend',
    },
  ),
  destructive(
    'remove_member',
    'DELETE',
    `${ORG}/member/{member}`,
    'canEditOrganization',
    'Removes a member.',
    {
      member: 'member',
    },
  ),
  destructive(
    'convert_holding',
    'POST',
    '/v1/holding/{holding}/convert',
    'canEditHolding',
    'Converts a note or SAFE into shares.',
    {
      holding: 'holding',
    },
  ),
  destructive(
    'repay_holding',
    'POST',
    '/v1/holding/{holding}/repay',
    'canEditHolding',
    'Records a note’s repayment.',
    {
      holding: 'holding',
    },
  ),
];

function write(
  name: string,
  method: ToolMethod,
  path: string,
  permission: PermissionName,
  description: string,
  extra: Partial<ToolDefinition> = {},
): ToolDefinition {
  return { name, description, kind: 'write', permission, method, path, ...extra };
}

function destructive(
  name: string,
  method: ToolMethod,
  path: string,
  permission: PermissionName,
  description: string,
  ids: Record<string, string>,
): ToolDefinition {
  return { name, description, kind: 'destructive', permission, method, path, ids };
}
