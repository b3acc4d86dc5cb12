import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { User } from '../../auth/users/user.entity';
import { HttpError } from '../../common/errors/app-error';
import { OutboxService, previousAttributes } from '../../common/events/outbox.service';
import { Env } from '../../config/env.schema';
import { MailService } from '../../mail/mail.service';
import { LegalEntity } from '../entities/legal-entity.entity';
import { Invitation } from '../invitations/invitation.entity';
import { Organization } from '../organizations/organization.entity';
import { AccessContext } from '../permissions/access-context';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { findRole } from '../roles/role-lookup';
import { AddMemberDto, InviteMemberDto, UpdateMemberDto } from './member.dto';
import { Member } from './member.entity';
import { MemberView, toMemberView } from './member.view';

const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface NewMember {
  name?: string;
  email?: string;
  role?: string;
  title?: string;
}

@Injectable()
export class MembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly mail: MailService,
    private readonly env: Env,
  ) {}

  /**
   * Active and invited members. Names and e-mail addresses of the others are only for roles with
   * `canViewMember`; anyone else (a Shareholder) sees their own row.
   */
  async list(access: AccessContext): Promise<MemberView[]> {
    const own = !access.permissions.has('canViewMember');
    const members = await this.dataSource.getRepository(Member).find({
      where: {
        organizationId: access.organizationId!,
        status: Not('removed'),
        ...(own ? { userId: access.userId } : {}),
      },
      order: { created: 'ASC', id: 'ASC' },
    });
    return members.map(toMemberView);
  }

  add(access: AccessContext, dto: AddMemberDto): Promise<MemberView> {
    return this.dataSource.transaction(async (m) => {
      const member = await this.insertMember(m, access, dto);
      await this.outbox.record(m, memberEvent('member.added', access, member));
      return toMemberView(member);
    });
  }

  /** Adds many members in one transaction: all or nothing (used by the CSV upload). */
  addMany(access: AccessContext, rows: NewMember[]): Promise<MemberView[]> {
    return this.dataSource.transaction(async (m) => {
      const created: Member[] = [];
      for (const row of rows) created.push(await this.insertMember(m, access, row));
      await this.outbox.record(
        m,
        ...created.map((member) => memberEvent('member.added', access, member)),
      );
      return created.map(toMemberView);
    });
  }

  invite(access: AccessContext, dto: InviteMemberDto): Promise<MemberView> {
    const organizationId = access.organizationId!;
    return this.dataSource
      .transaction(async (m) => {
        const org = await m.findOneByOrFail(Organization, { id: organizationId });
        const role = await findRole(m, organizationId, dto.role);
        this.assertMayGrant(access, role.id);
        let member = await m.findOneBy(Member, {
          organizationId,
          email: dto.email,
          status: Not('removed'),
        });
        if (member?.userId && member.status === 'active')
          throw HttpError.conflict('already a member');
        if (!member) {
          member = await m.save(
            m.create(Member, {
              organizationId,
              email: dto.email,
              name: dto.email,
              roleId: role.id,
              status: 'invited',
            }),
          );
        } else {
          member.roleId = role.id;
          member = await m.save(member);
        }
        // A new invitation replaces any earlier one still open for this member.
        await m.update(
          Invitation,
          { memberId: member.id, acceptedAt: IsNull() },
          { expiresAt: new Date() },
        );
        const token = randomBytes(32).toString('base64url');
        await m.insert(Invitation, {
          organizationId,
          memberId: member.id,
          email: dto.email,
          roleId: role.id,
          message: dto.message ?? null,
          tokenHash: hashToken(token),
          expiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS),
          invitedBy: access.userId,
        });
        await this.outbox.record(m, memberEvent('member.invited', access, member));
        return { member, token, org };
      })
      .then(async ({ member, token, org }) => {
        await this.mail.send({
          to: dto.email,
          subject: `You are invited to ${org.name} on Ledgerline`,
          text:
            `${dto.message ? `${dto.message}\n\n` : ''}You have been invited to join ${org.name}.\n` +
            `Accept: ${this.env.FRONTEND_URL}/invitation?token=${token}\n` +
            `Invitation token: ${token}\nIt expires in 7 days.`,
        });
        return toMemberView(member);
      });
  }

  /** The logged-in invitee accepts: the invited member row becomes theirs and active. */
  accept(userId: string, token: string): Promise<MemberView> {
    return this.dataSource.transaction(async (m) => {
      const invitation = await m.findOne(Invitation, {
        where: { tokenHash: hashToken(token) },
        lock: { mode: 'pessimistic_write' },
      });
      if (!invitation || invitation.expiresAt.getTime() <= Date.now()) {
        throw HttpError.badRequest('invalid or expired invitation token');
      }
      if (invitation.acceptedAt) throw HttpError.conflict('invitation already used');
      const user = await m.findOneByOrFail(User, { id: userId });
      if (user.email !== invitation.email)
        throw HttpError.forbidden('invitation was sent to another address');
      const already = await m.findOneBy(Member, {
        organizationId: invitation.organizationId,
        userId,
        status: 'active',
      });
      if (already) throw HttpError.conflict('already a member');
      const member = await m.findOneByOrFail(Member, { id: invitation.memberId });
      if (member.status === 'removed')
        throw HttpError.badRequest('invalid or expired invitation token');
      const before = toMemberView(member);
      Object.assign(member, {
        userId,
        entityId: user.entityId,
        name: user.name ?? member.name,
        status: 'active',
      });
      const saved = await m.save(member);
      await m.update(Invitation, invitation.id, { acceptedAt: new Date() });
      const access = { userId, organizationId: invitation.organizationId } as AccessContext;
      await this.outbox.record(
        m,
        memberEvent(
          'member.updated',
          access,
          saved,
          previousAttributes(before, toMemberView(saved)),
        ),
      );
      return toMemberView(saved);
    });
  }

  update(access: AccessContext, memberId: string, dto: UpdateMemberDto): Promise<MemberView> {
    return this.dataSource.transaction(async (m) => {
      const member = await this.lockMember(m, access, memberId);
      const before = toMemberView(member);
      if (dto.role !== undefined) {
        const role = await findRole(m, member.organizationId, dto.role);
        if (role.id !== member.roleId) {
          this.assertMayGrant(access, role.id);
          this.assertMayGrant(access, member.roleId);
          if (member.roleId === OWNER_ROLE_ID) await this.assertNotLastOwner(m, member);
          member.roleId = role.id;
        }
      }
      if (dto.name !== undefined) member.name = dto.name;
      if (dto.title !== undefined) member.title = dto.title;
      const saved = await m.save(member);
      const previous = previousAttributes(before, {
        ...toMemberView(saved),
        updated: before.updated,
      });
      if (Object.keys(previous).length) {
        await this.outbox.record(m, memberEvent('member.updated', access, saved, previous));
      }
      return toMemberView(saved);
    });
  }

  /** Soft removal: the row stays for the record, the person loses access. */
  remove(access: AccessContext, memberId: string): Promise<void> {
    return this.dataSource.transaction(async (m) => {
      const member = await this.lockMember(m, access, memberId);
      this.assertMayGrant(access, member.roleId);
      if (member.roleId === OWNER_ROLE_ID && member.status === 'active')
        await this.assertNotLastOwner(m, member);
      member.status = 'removed';
      member.removedAt = new Date();
      const saved = await m.save(member);
      await m.update(
        Invitation,
        { memberId: member.id, acceptedAt: IsNull() },
        { expiresAt: new Date() },
      );
      await this.outbox.record(m, memberEvent('member.removed', access, saved));
    });
  }

  private async insertMember(
    m: EntityManager,
    access: AccessContext,
    row: NewMember,
  ): Promise<Member> {
    const organizationId = access.organizationId!;
    const role = await findRole(m, organizationId, row.role ?? 'Shareholder');
    this.assertMayGrant(access, role.id);
    const email = row.email?.trim().toLowerCase() || null;
    if (email && (await m.existsBy(Member, { organizationId, email, status: Not('removed') }))) {
      throw HttpError.conflict(`${email} is already a member`);
    }
    const user = email ? await m.findOneBy(User, { email }) : null;
    if (
      user &&
      (await m.existsBy(Member, { organizationId, userId: user.id, status: Not('removed') }))
    ) {
      throw HttpError.conflict(`${email} is already a member`);
    }
    const name = row.name?.trim() || user?.name || email || '';
    const entityId =
      user?.entityId ?? (await m.save(m.create(LegalEntity, { kind: 'person', name, email }))).id;
    return m.save(
      m.create(Member, {
        organizationId,
        userId: user?.id ?? null,
        entityId,
        name,
        email,
        title: row.title ?? null,
        roleId: role.id,
        status: 'active',
      }),
    );
  }

  /**
   * Member changes of one organization are serialized on its row, so two concurrent demotions
   * cannot both see another Owner left (and cannot deadlock on each other's rows).
   */
  private async lockMember(
    m: EntityManager,
    access: AccessContext,
    memberId: string,
  ): Promise<Member> {
    await m.findOne(Organization, {
      where: { id: access.organizationId! },
      lock: { mode: 'pessimistic_write' },
    });
    const member = await m.findOne(Member, {
      where: { id: memberId, organizationId: access.organizationId! },
      lock: { mode: 'pessimistic_write' },
    });
    if (!member || member.status === 'removed') throw HttpError.notFound();
    return member;
  }

  /** Only an Owner may make someone Owner or change an Owner. */
  private assertMayGrant(access: AccessContext, roleId: string) {
    if (roleId === OWNER_ROLE_ID && access.roleId !== OWNER_ROLE_ID) {
      throw HttpError.forbidden('only an Owner may grant or change the Owner role');
    }
  }

  /** Locks the organization's owners and refuses to take away the last one. */
  private async assertNotLastOwner(m: EntityManager, member: Member) {
    const owners = await m.find(Member, {
      where: { organizationId: member.organizationId, roleId: OWNER_ROLE_ID, status: 'active' },
      lock: { mode: 'pessimistic_write' },
    });
    if (owners.length <= 1) throw HttpError.conflict('the last Owner cannot be removed or demoted');
  }
}

function memberEvent(
  type: string,
  access: AccessContext,
  member: Member,
  previous?: Record<string, unknown>,
) {
  return {
    type,
    organizationId: member.organizationId,
    actorUserId: access.userId,
    object: toMemberView(member),
    previous,
  };
}
