import { ApiProperty } from '@nestjs/swagger';
import {
  INVITATION_STATES,
  InvitationState,
  ReferralInvitation,
} from '../store/referral-invitation.entity';

/** A referral invitation the caller sent. */
export class ReferralInvitationView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  email: string;
  /**
   * `sent`; `signed_up` once the address registered with the caller's code; `subscribed` once an
   * organization the invitee created made its first successful payment (which earned the caller
   * a reward card).
   */
  @ApiProperty({ enum: INVITATION_STATES })
  state: InvitationState;
  @ApiProperty({ format: 'date-time' })
  created: string;
}

export const toInvitationView = (i: ReferralInvitation): ReferralInvitationView => ({
  id: i.id,
  email: i.email,
  state: i.state,
  created: i.created.toISOString(),
});
