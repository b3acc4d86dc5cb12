import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError } from '../../common';
import { MemberRepository } from './member.repository';
import { MemberView, toMemberView } from './member.view';

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
      this.ownOnly(access) ? access.userId : undefined,
    );
  }

  /** Who sees the list as it is: everyone with `canViewMember`, else each caller their own. */
  audience(access: AccessContext): string {
    return this.ownOnly(access) ? `user:${access.userId}` : 'all';
  }

  private ownOnly(access: AccessContext) {
    return !access.permissions.has('canViewMember');
  }

  /** One member; the guard has decided the caller may see it (canViewMember, or their own). */
  async get(access: AccessContext, memberId: string): Promise<MemberView> {
    const member = await this.members.find(access.organizationId!, memberId);
    if (!member) throw DomainError.notFound('no such member');
    return toMemberView(member);
  }
}
