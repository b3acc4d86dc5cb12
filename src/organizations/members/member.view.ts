import { ApiProperty } from '@nestjs/swagger';
import { Member, MEMBER_STATUSES, MemberStatus } from './member.entity';

/** A member of an organization: a person recorded in it, with or without a user account. */
export class MemberView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** The organization's id. */
  @ApiProperty({ format: 'uuid' })
  organization: string;
  /** The user account, once the person accepted an invitation; null for a recorded person. */
  @ApiProperty({ type: String, format: 'uuid' })
  user: string | null;
  /** The person's legal entity. */
  @ApiProperty({ type: String, format: 'uuid' })
  entity: string | null;
  name: string;
  email: string | null;
  title: string | null;
  /** The role's id (built-in or the organization's own). */
  @ApiProperty({ format: 'uuid' })
  role: string;
  /** `active`, `invited` (an invitation not yet accepted) or `removed` (only in the answer of a removal). */
  @ApiProperty({ enum: MEMBER_STATUSES })
  status: MemberStatus;
  @ApiProperty({ format: 'date-time' })
  created: string;
  @ApiProperty({ format: 'date-time' })
  updated: string;
}

export const toMemberView = (m: Member): MemberView => ({
  id: m.id,
  organization: m.organizationId,
  user: m.userId,
  entity: m.entityId,
  name: m.name,
  email: m.email,
  title: m.title,
  role: m.roleId,
  status: m.status,
  created: m.created.toISOString(),
  updated: m.updated.toISOString(),
});
