import '../../support/agent-on';
import type { Agent, Response } from 'supertest';
import { DataSource } from 'typeorm';
import { listRoutes, RouteEntry } from '../../../src/common';
import {
  BUILT_IN_ROLES,
  ORGANIZATION_EQUIVALENT,
  PermissionName,
} from '../../../src/organizations';
import { createTestApp, TestApp } from '../../support/app';
import { SELF_PERMISSIONS } from '../../../src/organizations/permissions/permissions';
import { createSecurity, issue } from '../../support/cap-table';
import { createOrg, joinByInvitation } from '../../support/orgs';
import { loggedInAgent, LoggedInUser, randomIp } from '../../support/users';

/**
 * Broken-object-level-authorization matrix over the whole route table. Every route is classified
 * by its access rule and attacked accordingly; no route is skipped by name:
 * - a route addressed by record ids (path or body) is called by attackers with the victim's ids,
 *   both under the victim's path and under the attacker's own organization's path;
 * - a GET without record ids must not answer with any of the victim's ids;
 * - public routes and writes without record ids act only on the caller's own account.
 * Attackers: an outsider with an organization of their own, a removed member, members whose
 * role lacks the route's permission, and a Shareholder (who may read only their own records).
 * Every path parameter is filled with a real record of its type by a fixture per parameter name;
 * a parameter without a fixture fails the test.
 */

type Kind =
  | 'organization'
  | 'member'
  | 'role'
  | 'entity'
  | 'address'
  | 'profile'
  | 'user'
  | 'invitation'
  | 'target'
  | 'memberEntity'
  | 'security'
  | 'legend'
  | 'shareholding'
  | 'valuation'
  | 'capitalChange'
  | 'plan'
  | 'pool'
  | 'vestingSchedule'
  | 'holding'
  | 'option'
  | 'exerciseRequest'
  | 'document'
  | 'file'
  | 'name'
  | 'subscription'
  | 'paymentProfile'
  | 'event'
  | 'webhook'
  | 'onboarding'
  | 'teamId'
  | 'chatUserId'
  | 'syncConfiguration';

interface Side {
  org: { id: string; entity: string; address: string };
  ids: Record<Kind, string>;
}

interface Attacker {
  name: string;
  agent: Agent;
  /** Permissions this attacker holds in the victim organization (none for outsiders). */
  permissions: readonly string[];
  /** The victim records this attacker owns (their own member record, profile...). */
  owns: string[];
}

const roleByName = (name: string) => BUILT_IN_ROLES.find((r) => r.name === name)!;

describe('BOLA matrix over the route table', () => {
  let t: TestApp;
  let routes: RouteEntry[];
  let victim: Side;
  let attackerSide: Side;
  let attackers: Attacker[];
  let victimOwner: LoggedInUser;

  /** A victim-like world: an organization with records of every kind. */
  async function makeSide(label: string): Promise<Side & { owner: LoggedInUser }> {
    const owner = await loggedInAgent(t);
    const org = await createOrg(owner.agent, `${label} Inc.`);
    const member = await owner.agent
      .post(`/v1/organization/${org.id}/member`)
      .send({
        name: `${label} holder`,
        email: `holder-${label.toLowerCase()}-${Date.now()}@example.com`,
      })
      .expect(201);
    const role = await owner.agent
      .post(`/v1/organization/${org.id}/role`)
      .send({ name: 'Nothing', permissions: [] })
      .expect(201);
    await owner.agent
      .post(`/v1/organization/${org.id}/member/invite`)
      .send({ email: `invitee-${label.toLowerCase()}-${Date.now()}@example.com`, role: 'Viewer' })
      .expect(201);
    const invitation = await t
      .get<DataSource>(DataSource)
      .query('SELECT id FROM invitation WHERE organization_id = $1', [org.id]);
    const security = await createSecurity(owner.agent, org.id);
    const legend = await owner.agent
      .post(`/v1/organization/${org.id}/legend`)
      .send({ name: 'Restricted', text: 'These shares are restricted.' })
      .expect(201);
    const holding = await issue(owner.agent, org.id, {
      member: member.body.id,
      security: security.id,
      quantity: 1000,
    });
    const valuation = await owner.agent
      .put('/v1/valuation')
      .send({
        organization: org.id,
        type: '409A',
        pricePerShare: '1.25',
        effectiveDate: '2024-01-01',
      })
      .expect(200);
    const capitalChange = await owner.agent
      .post(`/v1/entity/${member.body.entity}/capitalChange`)
      .send({
        organization: org.id,
        member: member.body.id,
        date: '2024-01-01',
        amount: '5000',
        currency: 'USD',
        type: 'contribution',
      })
      .expect(201);
    const plan = await owner.agent
      .post(`/v1/organization/${org.id}/plan`)
      .send({
        name: 'Plan',
        security: security.id,
        sharesReserved: '100000',
        pools: [{ name: 'Pool', sharesReserved: '100000' }],
      })
      .expect(201);
    const pool = plan.body.pools[0].id as string;
    const schedule = await owner.agent
      .post('/v1/vestingSchedule')
      .send({
        organization: org.id,
        name: 'Standard',
        totalPeriods: 48,
        periodLength: 1,
        periodType: 'months',
        cliffPeriods: 12,
        allocationType: 'CUMULATIVE_ROUNDING',
      })
      .expect(201);
    const option = await owner.agent
      .post('/v1/holding')
      .send({
        organization: org.id,
        member: member.body.id,
        type: 'option_iso',
        plan: plan.body.id,
        pool,
        quantity: '4800',
        exercisePrice: '0.1',
        grantDate: '2020-01-01',
        vestingSchedule: schedule.body.id,
      })
      .expect(201);
    const request = await owner.agent
      .post(`/v1/plan/${plan.body.id}/pool/${pool}/option/${option.body.id}/exercise/request`)
      .send({ quantity: '10' })
      .expect(201);
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const doc = await owner.agent
      .post(`/v1/organization/${org.id}/document`)
      .attach('file', pdf, 'doc.pdf')
      .expect(201);
    const file = await owner.agent
      .post(`/v1/organization/${org.id}/file`)
      .attach('file', pdf, 'file.pdf')
      .expect(201);
    // Billing is off in this app: the subscription is written as a signup would have stored it.
    const [subscription] = await t.get<DataSource>(DataSource).query(
      `INSERT INTO billing_subscription
         (id, organization_id, entity_id, provider_id, product_handle, state, provider_updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, 'starter', 'active', now()) RETURNING id`,
      [org.id, org.entity, Math.floor(Math.random() * 1e9)],
    );
    const [paymentProfile] = await t.get<DataSource>(DataSource).query(
      `INSERT INTO billing_payment_profile (id, entity_id, provider_id, brand, last4, is_default)
       VALUES (gen_random_uuid(), $1, $2, 'visa', '1111', true) RETURNING id`,
      [org.entity, Math.floor(Math.random() * 1e9)],
    );
    const events = await owner.agent
      .get(`/v1/organization/${org.id}/event?type=organization.created`)
      .expect(200);
    // A literal global unicast address of the unallocated 3ffe::/16 (never called: delivery does
    // not send to inactive endpoints).
    const webhook = await owner.agent
      .post(`/v1/organization/${org.id}/webhook`)
      .send({ url: 'https://[3ffe::10]/hook', active: false })
      .expect(201);
    // An onboarding the owner linked: from then on theirs alone, public routes included.
    const onboarding = await t.http
      .post('/v1/agent/onboarding/create')
      .set('X-Forwarded-For', randomIp())
      .send({ email: owner.email, initialPrompt: 'Victim Inc.' })
      .expect(201);
    await owner.agent
      .post('/v1/agent/onboarding/link')
      .send({ onboardingId: onboarding.body.id })
      .expect(200);
    // The organization's messaging team and the owner's chat user, as a chat session maps them
    // (chat is off in this app: the gateway's routes must refuse every session regardless).
    const [chat] = await t.get<DataSource>(DataSource).query(
      `WITH team AS (INSERT INTO chat_team (organization_id, team_id, team_name, private_channel_name)
                     VALUES ($1, $2, $3, 'cap-table') RETURNING team_id),
            chat_user_row AS (INSERT INTO chat_user (user_id, chat_user_id)
                     VALUES ($4, $5) RETURNING chat_user_id)
       SELECT (SELECT team_id FROM team) AS "teamId",
              (SELECT chat_user_id FROM chat_user_row) AS "chatUserId"`,
      [
        org.id,
        `team${org.id.slice(0, 8)}`,
        `org-${org.id.replace(/-/g, '')}`,
        owner.user.id,
        `chat${owner.user.id.slice(0, 8)}`,
      ],
    );
    // A cloud-drive sync configuration, as the drive routes would have stored it (the drive is
    // not configured in this app: its routes must refuse every attacker regardless).
    const [syncConfiguration] = await t.get<DataSource>(DataSource).query(
      `INSERT INTO drive_sync_configuration
         (id, organization_id, idp_folder_id, idp_folder_name, target_data_room_path, created_by_user_id)
       VALUES (gen_random_uuid(), $1, 'folder1', 'Board', '', $2) RETURNING id`,
      [org.id, owner.user.id],
    );
    return {
      owner,
      org,
      ids: {
        organization: org.id,
        member: member.body.id,
        role: role.body.id,
        entity: org.entity,
        address: org.address,
        profile: owner.user.profileId,
        user: owner.user.id,
        invitation: invitation[0].id,
        target: 'sidebar',
        memberEntity: member.body.entity,
        security: security.id,
        legend: legend.body.id,
        shareholding: holding.id,
        valuation: valuation.body.id,
        capitalChange: capitalChange.body.id,
        plan: plan.body.id,
        pool,
        vestingSchedule: schedule.body.id,
        holding: option.body.id,
        option: option.body.id,
        exerciseRequest: request.body.id,
        document: doc.body[0].id,
        file: file.body.id,
        name: 'doc.pdf',
        subscription: subscription.id,
        paymentProfile: paymentProfile.id,
        event: events.body.data[0].id,
        webhook: webhook.body.id,
        onboarding: onboarding.body.id,
        teamId: chat.teamId,
        chatUserId: chat.chatUserId,
        syncConfiguration: syncConfiguration.id,
      },
    };
  }

  async function insider(
    role: string,
    ownerAgent: Agent,
    orgId: string,
  ): Promise<Attacker & LoggedInUser> {
    const login = await loggedInAgent(t);
    const member = await joinByInvitation(ownerAgent, orgId, login.agent, login.email, role);
    const permissions = BUILT_IN_ROLES.find((r) => r.name === role)?.permissions ?? [];
    return {
      ...login,
      name: `${role} of the victim`,
      permissions,
      owns: [member.id, login.user.profileId, login.user.id, login.user.entityId],
      member,
    } as Attacker & LoggedInUser & { member: { id: string } };
  }

  beforeAll(async () => {
    // The agent's routes are in the matrix; its model is never reached (a closed local port).
    t = await createTestApp({ env: { LLM_BASE_URL: 'http://127.0.0.1:9' } });
    routes = listRoutes(t.app);
    const v = await makeSide('Victim');
    victim = v;
    victimOwner = v.owner;
    const a = await makeSide('Attacker');
    attackerSide = a;

    const viewer = await insider('Viewer', v.owner.agent, v.org.id);
    const shareholder = await insider('Shareholder', v.owner.agent, v.org.id);
    const admin = await insider('Admin', v.owner.agent, v.org.id);
    const nothing = await insider('Nothing', v.owner.agent, v.org.id);
    nothing.permissions = [];
    const removed = await insider('Editor', v.owner.agent, v.org.id);
    const removedMember = (removed as unknown as { member: { id: string } }).member;
    await v.owner.agent
      .delete(`/v1/organization/${v.org.id}/member/${removedMember.id}`)
      .expect(200);
    attackers = [
      { name: 'outsider', agent: a.owner.agent, permissions: [], owns: [] },
      { ...removed, name: 'removed member', permissions: [], owns: [] },
      viewer,
      shareholder,
      admin,
      nothing,
    ];
  });
  afterAll(() => t.close());

  /** The record kind a path parameter holds: its name, or the route's record for `:id`. */
  function kindOf(route: RouteEntry, param: string): Kind {
    const target = route.access?.kind === 'permission' ? route.access.target : undefined;
    // Under an entity's payment routes, `:profile` is a payment profile (not a user profile).
    if (param === 'profile' && route.path.includes('/payment/profile/')) return 'paymentProfile';
    const kind = target?.param === param ? target.record : param;
    if (!kind || !(kind in victim.ids)) {
      throw new Error(
        `${route.method} ${route.path}: no fixture for :${param}; add one to the BOLA matrix`,
      );
    }
    return kind as Kind;
  }

  const params = (route: RouteEntry) => [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);

  /** The route's path with every id taken from `ids`, except `:organization` from `org`. */
  const fill = (route: RouteEntry, ids: Record<Kind, string>, org = ids.organization) => {
    const path = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
      name === 'organization' ? org : ids[kindOf(route, name)],
    );
    // A list whose organization comes in the query string.
    const query = route.access?.kind === 'permission' ? route.access.target.query : undefined;
    return query ? `${path}?${query}=${org}` : path;
  };

  /** A body valid for as many routes as possible, so refusals come from access control. */
  const bodyFor = (route: RouteEntry, ids: Record<Kind, string>) => {
    const body: Record<string, unknown> = {
      organization: ids.organization,
      name: 'x',
      type: 'a.b',
      description: 'x',
      metadata: {},
      user: ids.user,
      target: ids.target,
      color: '#112233',
      permissions: [],
      email: 'x@example.com',
      role: 'Viewer',
      token: 'x',
    };
    const target = route.access?.kind === 'permission' ? route.access.target : undefined;
    // The organization under the body field the route names it by (`organizationId`).
    if (target?.body) body[target.body] = ids.organization;
    for (const [field, kind] of Object.entries(target?.bodyRecords ?? {}))
      body[field] = ids[kind as Kind];
    // A record addressed by a body field (a vesting projection of a stored schedule).
    if (target?.bodyRecord && target.record) body[target.bodyRecord] = ids[target.record as Kind];
    return body;
  };

  const call = (agent: Agent, route: RouteEntry, path: string, body: object): Promise<Response> => {
    switch (route.method) {
      case 'GET':
        return agent.get(path);
      case 'DELETE':
        return agent.delete(path).send(body);
      case 'POST':
        return agent.post(path).send(body);
      case 'PUT':
        return agent.put(path).send(body);
      case 'PATCH':
        return agent.patch(path).send(body);
      default:
        throw new Error(`unexpected method ${route.method}`);
    }
  };

  const addressesRecords = (r: RouteEntry) =>
    params(r).length > 0 ||
    (r.access?.kind === 'permission' &&
      Boolean(
        r.access.target.body ||
        r.access.target.bodyRecords ||
        r.access.target.query ||
        r.access.target.bodyRecord,
      ));

  /** Victim ids an answer must never contain for someone outside the victim organization. */
  const victimSecrets = () => [
    victim.ids.member,
    victim.ids.role,
    victim.ids.invitation,
    victim.ids.organization,
  ];

  it('classifies every route and has a fixture for every path parameter', () => {
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      expect(route.access).toBeDefined();
      for (const p of params(route)) expect(() => kindOf(route, p)).not.toThrow();
    }
  });

  /**
   * Routes the matrix must have found and attacks by the victim's ids (a route missing from the
   * table, or not addressed by records, would otherwise pass unnoticed). One line per route.
   */
  const MUST_COVER: [method: string, path: string, permission: string][] = [
    ['GET', '/v1/organization/:organization/ocf', 'canViewCapTable'],
    ['POST', '/v1/organization/:organization/ocf', 'canEditCapTable'],
    [
      'DELETE',
      '/v1/organization/:organization/subscription/:subscription',
      'canEditOrganizationBilling',
    ],
    ['DELETE', '/v1/entity/:entity/payment/profile/:profile', 'canEditEntityBilling'],
    ['GET', '/v1/organization/:organization/event', 'canViewOrganization'],
    ['GET', '/v1/organization/:organization/event/:event', 'canViewOrganization'],
    ['GET', '/v1/organization/:organization/webhook', 'canViewOrganization'],
    ['POST', '/v1/organization/:organization/webhook', 'canEditOrganization'],
    ['PATCH', '/v1/organization/:organization/webhook/:webhook', 'canEditOrganization'],
    ['DELETE', '/v1/organization/:organization/webhook/:webhook', 'canEditOrganization'],
    ['POST', '/v1/organization/:organization/webhook/:webhook/test', 'canEditOrganization'],
    [
      'POST',
      '/v1/organization/:organization/webhook/:webhook/event/:event/resend',
      'canEditOrganization',
    ],
    [
      'POST',
      '/v1/organization/:organization/webhook/:webhook/secret/rotate',
      'canEditOrganization',
    ],
    ['GET', '/v1/organization/:organization/webhook/:webhook/delivery', 'canEditOrganization'],
    ['GET', '/v1/organization/:organization/holding', 'canViewOrganization'],
    ['POST', '/v1/plan/:plan/pool', 'canEditPlan'],
    ['POST', '/api/v1/chat/sync-org/:orgId', 'canEditOrganization'],
    ['POST', '/api/v1/chat/session', 'canViewOrganization'],
    ['POST', '/v1/credit/transfer', 'canEditOrganizationBilling'],
    ['GET', '/v1/entity/:entity/history', 'canEditOrganizationBilling'],
    ['GET', '/v1/referral/:entity', 'canEditOrganizationBilling'],
    ['GET', '/v1/organization/:organization/referral', 'canViewOrganization'],
    ['GET', '/v1/organization/:organization/google-drive/auth-url', 'canEditDocuments'],
    ['POST', '/v1/organization/:organization/google-drive/connect', 'canEditDocuments'],
    ['DELETE', '/v1/organization/:organization/google-drive/connection', 'canEditDocuments'],
    ['GET', '/v1/organization/:organization/google-drive/status', 'canViewOrganization'],
    ['GET', '/v1/organization/:organization/google-drive/folders', 'canViewOrganization'],
    ['POST', '/v1/organization/:organization/google-drive/sync-config', 'canEditDocuments'],
    ['PATCH', '/v1/organization/:organization/google-drive/sync-config/:id', 'canEditDocuments'],
    ['DELETE', '/v1/organization/:organization/google-drive/sync-config/:id', 'canEditDocuments'],
    ['GET', '/v1/organization/:organization/google-drive/sync-history', 'canViewOrganization'],
    ['POST', '/v1/organization/:organization/google-drive/sync', 'canEditDocuments'],
    ['POST', '/v1/organization/:organization/document/many', 'canEditDocuments'],
  ];

  it('has the routes it must cover, each addressed by the victim’s ids', () => {
    for (const [method, path, permission] of MUST_COVER) {
      const route = routes.find((r) => r.method === method && r.path === path);
      expect(route ? `${method} ${path}` : `${method} ${path} is not in the route table`).toBe(
        `${method} ${path}`,
      );
      expect(route!.access).toMatchObject({ kind: 'permission', permission });
      expect(addressesRecords(route!)).toBe(true);
    }
  });

  it('refuses every attacker on every route addressed by the victim’s ids, and answers no other route with them', async () => {
    const leaks: string[] = [];
    for (const route of routes) {
      const access = route.access!;
      if (!addressesRecords(route)) {
        // No record addressed: a read must not reveal the victim's records to an outsider.
        if (route.method !== 'GET' || access.kind === 'public') continue;
        for (const attacker of attackers.filter(
          (a) => a.name === 'outsider' || a.name === 'removed member',
        )) {
          const res = await call(attacker.agent, route, route.path, {});
          const text = JSON.stringify(res.body);
          if ([...victimSecrets(), victim.ids.organization].some((id) => text.includes(id))) {
            leaks.push(
              `${attacker.name}: ${route.method} ${route.path} → ${res.status} shows victim ids`,
            );
          }
        }
        continue;
      }
      for (const attacker of attackers) {
        // On the victim organization's records, a personal-record permission means its
        // organization-level equivalent (the organization's address: canEditOrganization).
        const asked =
          access.kind === 'permission' ? (access.permission as PermissionName) : undefined;
        const permission = asked && (ORGANIZATION_EQUIVALENT[asked] ?? asked);
        const mayLegitimately =
          permission !== undefined && attacker.permissions.includes(permission);
        // Under the victim's own path: refused unless the attacker's role holds the permission.
        if (!mayLegitimately) {
          const path = fill(route, victim.ids);
          const ownsTarget = params(route).some(
            (p) => p !== 'organization' && attacker.owns.includes(victim.ids[kindOf(route, p)]),
          );
          if (!ownsTarget) {
            const res = await call(attacker.agent, route, path, bodyFor(route, victim.ids));
            const profileRead = route.method === 'GET' && route.path === '/v1/profile/:profile';
            if (profileRead) {
              // Spec 4.5: any logged-in user reads a profile, but never its contact details.
              if (res.status !== 200 || 'phone' in res.body || 'address' in res.body) {
                leaks.push(
                  `${attacker.name}: ${route.method} ${path} → ${res.status} ${JSON.stringify(res.body)}`,
                );
              }
            } else if (
              ![403, 404].includes(res.status) &&
              // A machine caller's route (the messaging gateway's) refuses a session with 401:
              // no session is its caller (429 once its failures are used up).
              !(access.kind === 'machine' && [401, 429].includes(res.status))
            ) {
              // A "...OrSelf" list answers the caller's own records only: none of the victim's.
              const ownList =
                res.status === 200 &&
                permission !== undefined &&
                SELF_PERMISSIONS.has(permission) &&
                !victimSecrets().some((id) => JSON.stringify(res.body).includes(id));
              if (!ownList) leaks.push(`${attacker.name}: ${route.method} ${path} → ${res.status}`);
            }
          }
        }
        // Under the outsider's own organization, with the victim's record ids: never there.
        if (
          attacker.name === 'outsider' &&
          params(route).includes('organization') &&
          params(route).length > 1
        ) {
          const own = { ...victim.ids, organization: attackerSide.ids.organization };
          const path = fill(route, own);
          const res = await call(attacker.agent, route, path, bodyFor(route, own));
          if (res.status !== 404)
            leaks.push(`outsider, own path: ${route.method} ${path} → ${res.status}`);
        }
        // The victim's ids in the body of a route of the outsider's own organization.
        if (
          attacker.name === 'outsider' &&
          access.kind === 'permission' &&
          access.target.bodyRecords
        ) {
          const path = fill(route, attackerSide.ids);
          const body = {
            ...bodyFor(route, victim.ids),
            organization: attackerSide.ids.organization,
          };
          const res = await call(attacker.agent, route, path, body);
          if (res.status !== 404)
            leaks.push(`outsider, victim ids in body: ${route.method} ${path} → ${res.status}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('left the victim’s records as they were', async () => {
    const members = await victimOwner.agent
      .get(`/v1/organization/${victim.ids.organization}/member`)
      .expect(200);
    expect(members.body.map((m: { id: string }) => m.id)).toContain(victim.ids.member);
    const roles = await victimOwner.agent
      .get(`/v1/organization/${victim.ids.organization}/role`)
      .expect(200);
    expect(roles.body.find((r: { id: string }) => r.id === victim.ids.role)).toMatchObject({
      name: 'Nothing',
    });
    const org = await victimOwner.agent
      .get(`/v1/organization/${victim.ids.organization}`)
      .expect(200);
    expect(org.body.name).toBe('Victim Inc.');
    const webhooks = await victimOwner.agent
      .get(`/v1/organization/${victim.ids.organization}/webhook`)
      .expect(200);
    expect(webhooks.body.data).toEqual([
      expect.objectContaining({ id: victim.ids.webhook, url: 'https://[3ffe::10]/hook' }),
    ]);
    expect(roleByName('Owner').permissions).toContain('canDeleteOrganization');
  });
});
