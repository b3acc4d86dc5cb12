import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError, defineList } from '../../common';
import { MemberRepository } from './member.repository';
import { MemberView, toMemberView } from './member.view';

/** Roles without `canViewMember` (a Shareholder) see only their own row. */
const ownOnly = (access: AccessContext) => !access.permissions.has('canViewMember');

/** The member list as cached: everyone with `canViewMember` sees it alike, anyone else their own. */
export const MEMBER_LIST = defineList({
  list: 'member',
  tables: ['member'],
  audience: (access) => (ownOnly(access) ? `user:${access.userId}` : 'all'),
});

/** Reading members. */
@Injectable()
export class MembersService {
  constructor(private readonly members: MemberRepository) {}

  /**
   * Active and invited members, as JSON. Names and e-mail addresses of the others are only for
   * roles with `canViewMember`; anyone else (a Shareholder) sees their own row.
   */
  list(access: AccessContext): Promise<string> {
    return this.members.listJson(
      access.organizationId!,
      ownOnly(access) ? access.userId : undefined,
    );
  }

  /** One member; the guard has decided the caller may see it (canViewMember, or their own). */
  async get(access: AccessContext, memberId: string): Promise<MemberView> {
    const member = await this.members.find(access.organizationId!, memberId);
    if (!member) throw DomainError.notFound('no such member');
    return toMemberView(member);
  }
}
