import { DataSource } from 'typeorm';
import type { AccessContext } from '../../src/common';
import { DomainError } from '../../src/common';
import { InvitationsService } from '../../src/organizations/members/invitations.service';
import { MemberAdditionsService } from '../../src/organizations/members/member-additions.service';
import { MemberChangesService } from '../../src/organizations/members/member-changes.service';
import { MembersService } from '../../src/organizations/members/members.service';
import { OrganizationsModule } from '../../src/organizations';
import { BUILT_IN_ROLES } from '../../src/organizations/permissions/permissions';
import { RolesService } from '../../src/organizations/roles/roles.service';
import { createServiceTest, ServiceTest } from '../support/service';
import { accessContext, ownedOrganization as ownedWorld } from '../support/service-world';
import { createUser } from '../support/users';

/**
 * The rules of members, roles and invitations, tested once where they live: the services on a
 * real database, without HTTP. The e2e tests stay about the contract.
 */
const role = (name: string) => BUILT_IN_ROLES.find((r) => r.name === name)!;

describe('organization services', () => {
  let t: ServiceTest;
  let additions: MemberAdditionsService;
  let changes: MemberChangesService;
  let members: MembersService;
  let invitations: InvitationsService;
  let roles: RolesService;

  beforeAll(async () => {
    t = await createServiceTest(OrganizationsModule);
    additions = t.get(MemberAdditionsService);
    changes = t.get(MemberChangesService);
    members = t.get(MembersService);
    invitations = t.get(InvitationsService);
    roles = t.get(RolesService);
  });
  afterAll(() => t.close());

  /** The member list, parsed from the JSON the service answers with. */
  const listOf = async (access: AccessContext) =>
    JSON.parse(await members.list(access)) as { id: string; name: string }[];

  const ownedOrganization = () => ownedWorld(t);
  const contextFor = accessContext;

  const domainError = async (work: Promise<unknown>) => {
    const err = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  };

  describe('MemberAdditionsService', () => {
    it('records a person with an entity of their own, linked to no account', async () => {
      const { owner } = await ownedOrganization();
      const registered = await createUser(t);
      const member = await additions.add(owner, { email: registered.email, role: 'Editor' });
      expect(member).toMatchObject({ user: null, role: role('Editor').id, status: 'active' });
      expect(member.entity).not.toBe(registered.user.entityId);
    });

    it('refuses a duplicate address (409) and an unknown role (400 on the role field)', async () => {
      const { owner } = await ownedOrganization();
      await additions.add(owner, { email: 'dup@example.com' });
      expect((await domainError(additions.add(owner, { email: 'DUP@example.com ' }))).status).toBe(
        409,
      );
      const unknown = await domainError(additions.add(owner, { name: 'X', role: 'Emperor' }));
      expect(unknown.status).toBe(400);
      expect(unknown.details.body).toEqual({ field: 'role' });
    });

    it('lets only an Owner grant the Owner role', async () => {
      const { org, user } = await ownedOrganization();
      const admin = contextFor(user.id, org.id, role('Admin').id);
      expect((await domainError(additions.add(admin, { name: 'Z', role: 'Owner' }))).status).toBe(
        403,
      );
    });

    it('uploads all rows through the same rules, or none, reporting each bad row', async () => {
      const { owner } = await ownedOrganization();
      await additions.add(owner, { email: 'taken@example.com' });
      const csv = (text: string) =>
        ({
          originalname: 'm.csv',
          mimetype: 'text/csv',
          buffer: Buffer.from(text),
        }) as Express.Multer.File;
      const err = await domainError(
        additions.upload(
          owner,
          csv(
            'name,email,role\nA,a@example.com,Viewer\nB,taken@example.com,Viewer\nC,c@example.com,Nope\n',
          ),
        ),
      );
      expect(err.details.body?.errors).toEqual([
        { row: 3, column: 'email', reason: 'taken@example.com is already a member' },
        { row: 4, column: 'role', reason: 'role "Nope" does not exist in this organization' },
      ]);
      const names = (await listOf(owner)).map((m) => m.name);
      expect(names).not.toContain('A');
      const added = await additions.upload(
        owner,
        csv('name,email\nD,d@example.com\nE,e@example.com\n'),
      );
      expect(added.map((m) => m.email)).toEqual(['d@example.com', 'e@example.com']);
    });
  });

  describe('MemberChangesService', () => {
    it('never removes or demotes the last Owner; allows it once there is another', async () => {
      const { owner } = await ownedOrganization();
      expect(
        (await domainError(changes.update(owner, owner.memberId!, { role: 'Viewer' }))).status,
      ).toBe(409);
      expect((await domainError(changes.remove(owner, owner.memberId!))).status).toBe(409);
      const second = await additions.add(owner, { name: 'Second Owner', role: 'Owner' });
      const demoted = await changes.update(owner, owner.memberId!, { role: 'Admin' });
      expect(demoted.role).toBe(role('Admin').id);
      expect((await domainError(changes.remove(owner, second.id))).status).toBe(409);
    });

    it('records what changed in the event description', async () => {
      const { owner, org } = await ownedOrganization();
      const m = await additions.add(owner, { email: 'who@example.com', role: 'Viewer' });
      await changes.update(owner, m.id, { role: 'Editor', name: 'New Name' });
      const [event] = await t
        .get<DataSource>(DataSource)
        .query(
          `SELECT description FROM outbox_event WHERE organization_id = $1 AND type = 'member.updated'`,
          [org.id],
        );
      expect(event.description).toBe(
        'member who@example.com: role Viewer -> Editor; name who@example.com -> "New Name"',
      );
    });

    it('answers 404 for another organization’s member', async () => {
      const a = await ownedOrganization();
      const b = await ownedOrganization();
      const bMember = await additions.add(b.owner, { name: 'B person' });
      expect((await domainError(changes.remove(a.owner, bMember.id))).status).toBe(404);
    });
  });

  describe('InvitationsService', () => {
    it('lets only the verified owner of the address accept, once', async () => {
      const { owner } = await ownedOrganization();
      const invitee = await createUser(t);
      const stranger = await createUser(t);
      await invitations.invite(owner, { email: invitee.email, role: 'Viewer' });
      const [pending] = await invitations.pendingFor(invitee.user.id);
      expect(await invitations.pendingFor(stranger.user.id)).toEqual([]);
      expect((await domainError(invitations.acceptById(stranger.user.id, pending.id))).status).toBe(
        404,
      );
      const joined = await invitations.acceptById(invitee.user.id, pending.id);
      expect(joined).toMatchObject({ user: invitee.user.id, status: 'active' });
      expect((await domainError(invitations.acceptById(invitee.user.id, pending.id))).status).toBe(
        404,
      );
    });

    it('refuses to invite someone who is already an active member with an account', async () => {
      const { owner } = await ownedOrganization();
      const invitee = await createUser(t);
      await invitations.invite(owner, { email: invitee.email, role: 'Viewer' });
      const [pending] = await invitations.pendingFor(invitee.user.id);
      await invitations.acceptById(invitee.user.id, pending.id);
      expect(
        (await domainError(invitations.invite(owner, { email: invitee.email, role: 'Editor' })))
          .status,
      ).toBe(409);
    });

    it('removes the invited record when the invitation is declined', async () => {
      const { owner } = await ownedOrganization();
      const invitee = await createUser(t);
      const invited = await invitations.invite(owner, { email: invitee.email, role: 'Viewer' });
      const [pending] = await invitations.pendingFor(invitee.user.id);
      await invitations.decline(invitee.user.id, pending.id);
      expect((await listOf(owner)).map((m) => m.id)).not.toContain(invited.id);
    });
  });

  describe('RolesService', () => {
    it('creates, renames and deletes custom roles; built-in ones are fixed (409)', async () => {
      const { owner } = await ownedOrganization();
      const auditor = await roles.create(owner, {
        name: 'Auditor',
        permissions: ['canViewCapTable'],
      });
      expect(
        (await domainError(roles.create(owner, { name: 'auditor', permissions: [] }))).status,
      ).toBe(409);
      expect(
        (await domainError(roles.create(owner, { name: 'Admin', permissions: [] }))).status,
      ).toBe(409);
      const renamed = await roles.update(owner, auditor.id, { name: 'Reviewer', permissions: [] });
      expect(renamed).toMatchObject({ name: 'Reviewer', permissions: [] });
      expect(
        (await domainError(roles.update(owner, role('Viewer').id, { name: 'V', permissions: [] })))
          .status,
      ).toBe(409);
      await roles.remove(owner, auditor.id);
      expect((await roles.list(owner.organizationId!)).map((r) => r.id)).not.toContain(auditor.id);
    });

    it('refuses permissions a custom role may not carry, and deleting a role in use', async () => {
      const { owner } = await ownedOrganization();
      for (const permissions of [['canFly'], ['canDeleteOrganization'], ['canReadSite']]) {
        expect(
          (await domainError(roles.create(owner, { name: `R${permissions[0]}`, permissions })))
            .status,
        ).toBe(400);
      }
      const used = await roles.create(owner, { name: 'Used', permissions: [] });
      await additions.add(owner, { name: 'Someone', role: 'Used' });
      expect((await domainError(roles.remove(owner, used.id))).status).toBe(409);
    });
  });
});
