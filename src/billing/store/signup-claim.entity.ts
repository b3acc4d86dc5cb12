import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * An organization's signup under way: claimed in a short transaction before the provider is
 * called (outside any transaction), removed when the signup is stored or refused. One per
 * organization, so two signups never call the provider at once. Its `token` is the provider's
 * uniqueness token: whoever finishes a claim whose call failed or was lost sends the same one,
 * and the provider makes at most one subscription of them.
 */
@Entity('billing_signup_claim')
export class SignupClaim {
  @PrimaryColumn('uuid')
  organizationId: string;

  @Column({ type: 'varchar', length: 100 })
  token: string;

  /**
   * The request calling the provider with it now; null once that request ended without knowing
   * what the provider did (the next signup takes the claim over at once).
   */
  @Column({ type: 'uuid', nullable: true })
  holder: string | null;

  /** When the holder took it: a holder silent for SIGNUP_CLAIM_STALE_MS is taken to be gone. */
  @Column({ type: 'timestamptz' })
  claimedAt: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
