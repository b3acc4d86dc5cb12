import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

/**
 * The user's grant of the identity provider's contacts: its tokens (refresh token, access token
 * with its expiry) and the connected e-mail, as one JSON value sealed by SecretBox (AES-256-GCM)
 * bound to the user id. One row per user; reconnecting replaces it.
 */
@Entity('idp_contact_grant')
export class IdpContactGrant {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @Column({ type: 'text' })
  grantCiphertext: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
