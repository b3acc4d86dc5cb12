import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * An account. Never serialise this class: `toUserView()` gives the public shape. Hashes and the
 * TOTP secret (sealed with the SecretBox) stay on the server.
 */
@Entity('user_account')
export class User {
  /** Assigned by the service before insert, so the personal records can point at it. */
  @PrimaryColumn('uuid')
  id: string;

  /** Normalised: trimmed, lower case. */
  @Index('user_account_email_uq', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** argon2id; null for an account created through the identity provider. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  @Column({ type: 'boolean', default: false })
  emailVerified: boolean;

  @Column({ type: 'boolean', default: false })
  twoFactorEnabled: boolean;

  /** TOTP secret sealed with AES-256-GCM (SecretBox), bound to the user id. */
  @Column({ type: 'text', nullable: true })
  twoFactorSecret: string | null;

  /** The last TOTP time step accepted: a token of that step or earlier is refused (no replay). */
  @Column({ type: 'integer', nullable: true })
  twoFactorLastStep: number | null;

  /** `sub` of the identity provider account linked to this user. */
  @Index('user_account_idp_subject_uq', { unique: true, where: 'idp_subject IS NOT NULL' })
  @Column({ type: 'varchar', length: 255, nullable: true })
  idpSubject: string | null;

  /** The user's personal legal entity (organizations module). */
  @Column({ type: 'uuid' })
  entityId: string;

  @Column({ type: 'uuid' })
  profileId: string;

  /** Referral code given at registration, resolved by the referral program; never validated here. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  referralCode: string | null;

  /** Client IP at registration (for the per-IP registration limit). */
  @Index('user_account_registration_ip_idx')
  @Column({ type: 'varchar', length: 45, nullable: true })
  registrationIp: string | null;

  /**
   * An account of the service's own (a gateway hook's actor): no password, an address no mail
   * reaches, and SessionService refuses to log it in; it acts only through sessions the service
   * mints for it (SystemSessions).
   */
  @Column({ type: 'boolean', default: false })
  system: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;
}
