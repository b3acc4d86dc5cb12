import { Injectable } from '@nestjs/common';
import { Retention } from '../../scheduler';
import { INVITATIONS_PER_ADDRESS } from './referral-invitations.service';

/**
 * Once a day across instances, the record of invitation mails older than the per-address limit's
 * period goes: only the mails within it count.
 */
@Retention({
  owner: 'referral',
  name: 'referral:invitation-mails-cleanup',
  table: 'referral_invitation_mail',
  age: 'sent_at',
  olderThan: INVITATIONS_PER_ADDRESS.windowMs,
})
@Injectable()
export class InvitationMailRetention {}
