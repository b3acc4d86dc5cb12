import { ApiProperty } from '@nestjs/swagger';

/** The organization an invitation is to. */
export class InvitationOrganizationView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  name: string;
}

/** The role an invitation grants. */
export class InvitationRoleView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  name: string;
}

/** An open invitation to the caller's verified address (`GET /v1/user/invitations`). */
export class PendingInvitationView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  organization: InvitationOrganizationView;
  role: InvitationRoleView;
  /** The inviter's message. */
  message: string | null;
  /** The user who sent the invitation. */
  @ApiProperty({ type: String, format: 'uuid' })
  invitedBy: string | null;
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
  @ApiProperty({ format: 'date-time' })
  created: string;
}
