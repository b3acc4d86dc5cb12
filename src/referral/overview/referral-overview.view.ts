import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RewardCardView } from '../cards/card.view';
import { ReferralInvitationView } from '../invitations/invitation.view';

/** `GET /v1/referral/:entity`: the entity's referral data and credit. */
export class EntityReferralView {
  @ApiProperty({ format: 'uuid' })
  entity: string;
  /**
   * The owner's referral code, for a personal entity (invitees register with it); null for an
   * organization's entity.
   */
  @ApiProperty({ type: String, nullable: true, example: 'K7QM2XD9PA' })
  referralCode: string | null;
  /** Users who registered with the code. */
  @ApiProperty()
  referralCount: number;
  /** The owner's referral invitations (empty for an organization's entity). */
  @ApiProperty({ type: [ReferralInvitationView] })
  invitations: ReferralInvitationView[];
  /** The owner's reward cards (empty for an organization's entity). */
  @ApiProperty({ type: [RewardCardView] })
  cards: RewardCardView[];
  /** Two decimals. */
  @ApiProperty({ example: '25.00' })
  balance: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
}

/** `GET /v1/organization/:organization/referral`: the organization entity's credit. */
export class OrganizationReferralView {
  @ApiProperty({ format: 'uuid' })
  organization: string;
  @ApiProperty({ format: 'uuid' })
  entity: string;
  @ApiProperty({ example: 'USD' })
  currency: string;
  /** What is left to apply (it is applied at once while a subscription is live). */
  @ApiProperty({ example: '0.00' })
  balance: string;
  /** Credit transferred in. */
  @ApiProperty({ example: '25.00' })
  received: string;
  /** Credit transferred out. */
  @ApiProperty({ example: '0.00' })
  sent: string;
  /** Credit applied to invoices. */
  @ApiProperty({ example: '25.00' })
  redeemed: string;
  /** Movements recorded. */
  @ApiProperty()
  movements: number;
}

/** `GET /v1/waitlistStats`. */
export class WaitlistStatsView {
  /** Everyone registered (the service's own accounts aside). */
  @ApiProperty()
  total: number;
  /** With a session: the caller's 1-based place, in order of registration. */
  @ApiPropertyOptional()
  position?: number;
  /** With a session: users who registered with the caller's referral code. */
  @ApiPropertyOptional()
  referralCount?: number;
}
