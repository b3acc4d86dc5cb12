import { Member, MemberStatus } from './member.entity';

export interface MemberView {
  id: string;
  organization: string;
  user: string | null;
  entity: string | null;
  name: string;
  email: string | null;
  title: string | null;
  role: string;
  status: MemberStatus;
  created: string;
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
