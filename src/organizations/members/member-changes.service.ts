import { Injectable } from '@nestjs/common';
import { AccessContext, Clock, DomainError } from '../../common';
import { Tx, UnitOfWork, previousAttributes } from '../../events';
import { definedOnly, describeChanges } from '../describe-changes';
import { InvitationRepository } from '../invitations/invitation.repository';
import { OrganizationRepository } from '../organizations/organization.repository';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { RoleRepository } from '../roles/role.repository';
import { RoleLookup, roleName } from '../roles/role-lookup';
import { UpdateMemberDto } from './member.dto';
import { Member } from './member.entity';
import { MemberRepository } from './member.repository';
import { assertMayGrant, memberEvent, memberLabel } from './member-rules';
import { MemberView, toMemberView } from './member.view';

/**
 * Role, name and title changes, and removal. Changes to one organization's members serialise on
 * its row, so the last Owner can be neither removed nor demoted, even by two Owners at once.
 */
@Injectable()
export class MemberChangesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly members: MemberRepository,
    private readonly roles: RoleRepository,
    private readonly roleLookup: RoleLookup,
    private readonly invitations: InvitationRepository,
    private readonly clock: Clock,
  ) {}

  update(access: AccessContext, memberId: string, dto: UpdateMemberDto): Promise<MemberView> {
    return this.uow.run(async (tx) => {
      const member = await this.lockMember(tx, access, memberId);
      const before = toMemberView(member);
      const changes: string[] = [];
      if (dto.role !== undefined) {
        const role = await this.roleLookup.resolve(tx, member.organizationId, dto.role);
        if (role.id !== member.roleId) {
          assertMayGrant(access, role.id);
          assertMayGrant(access, member.roleId);
          if (member.roleId === OWNER_ROLE_ID) await this.assertNotLastOwner(tx, member);
          const previous = await this.roles.findUsable(member.organizationId, member.roleId, tx);
          changes.push(`role ${previous ? roleName(previous) : 'unknown'} -> ${roleName(role)}`);
          member.roleId = role.id;
        }
      }
      const edited = { ...member, ...definedOnly({ name: dto.name, title: dto.title }) };
      changes.push(...describeChanges(member, edited, ['name', 'title']));
      Object.assign(member, edited);
      const saved = await this.members.save(member, tx);
      const after = toMemberView(saved);
      const previous = previousAttributes(before, { ...after, updated: before.updated });
      if (Object.keys(previous).length) {
        await tx.record(
          memberEvent(
            'member.updated',
            access.userId,
            saved,
            `member ${memberLabel(saved)}: ${changes.join('; ')}`,
            previous,
          ),
        );
      }
      return after;
    });
  }

  /**
   * Soft removal: the row stays for the record, the person loses access. Answers the member as it
   * now stands (status `removed`).
   */
  remove(access: AccessContext, memberId: string): Promise<MemberView> {
    return this.uow.run(async (tx) => {
      const member = await this.lockMember(tx, access, memberId);
      assertMayGrant(access, member.roleId);
      if (member.roleId === OWNER_ROLE_ID && member.status === 'active') {
        await this.assertNotLastOwner(tx, member);
      }
      member.status = 'removed';
      member.removedAt = this.clock.now();
      const saved = await this.members.save(member, tx);
      await this.invitations.expireOpen(member.id, tx);
      await tx.record(
        memberEvent(
          'member.removed',
          access.userId,
          saved,
          `member ${memberLabel(saved)}: removed`,
        ),
      );
      return toMemberView(saved);
    });
  }

  private async lockMember(tx: Tx, access: AccessContext, memberId: string): Promise<Member> {
    await this.organizations.lock(access.organizationId!, tx);
    const member = await this.members.lock(access.organizationId!, memberId, tx);
    if (!member) throw DomainError.notFound('no such member');
    return member;
  }

  private async assertNotLastOwner(tx: Tx, member: Member) {
    const owners = await this.members.lockOwners(member.organizationId, tx);
    if (owners.length <= 1) {
      throw DomainError.conflict('the last Owner cannot be removed or demoted');
    }
  }
}
