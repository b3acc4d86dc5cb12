import { getSchemaPath } from '@nestjs/swagger';
import { AccessContext, DomainError } from '../../common';
import { documentEventObjects, type DomainEvent, type EventType } from '../../events';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { Member } from './member.entity';
import { MemberView, toMemberView } from './member.view';

declare module '../../events' {
  /** The member events carry the member as its route shows it (`memberEvent`). */
  interface EventObjects {
    'member.added': MemberView;
    'member.updated': MemberView;
    'member.removed': MemberView;
  }
}

/** The member events carry the member as its route shows it (`memberEvent`). */
const member = () => ({ $ref: getSchemaPath(MemberView) });
documentEventObjects({
  'member.invited': member,
  'member.added': member,
  'member.updated': member,
  'member.removed': member,
});

/** Only an Owner may make someone Owner or change an Owner. */
export function assertMayGrant(access: AccessContext, roleId: string) {
  if (roleId === OWNER_ROLE_ID && access.roleId !== OWNER_ROLE_ID) {
    throw DomainError.forbidden('only an Owner may grant or change the Owner role');
  }
}

/** How a member is named in activity descriptions. */
export const memberLabel = (m: Pick<Member, 'email' | 'name'>) => m.email ?? m.name;

export function memberEvent(
  type: EventType,
  actorUserId: string,
  member: Member,
  description: string,
  previous?: Record<string, unknown>,
): DomainEvent {
  return {
    type,
    organizationId: member.organizationId,
    actorUserId,
    object: toMemberView(member),
    previous,
    description,
    // A member sees the entries about their own member record, as its route shows it to them.
    subjects: [member.id],
  };
}
