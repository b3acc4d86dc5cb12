import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';

export type IdempotencyState = 'running' | 'done';

/**
 * One `Idempotency-Key` of one caller: the request it was first sent with (method, path and a
 * hash of the body) and, once that request has been answered, the answer, replayed to every
 * retry until `expiresAt`. While the request runs, `expiresAt` is the end of its claim's lease,
 * renewed as it runs: a claim left by a process that died lapses soon. A row past `expiresAt`
 * counts as absent and is swept.
 */
@Entity('idempotency_key')
@Index('idempotency_key_expires_idx', ['expiresAt'])
export class IdempotencyKey {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  @Column({ type: 'varchar', length: 10 })
  method: string;

  /** The path as requested, with its query string. */
  @Column({ type: 'text' })
  path: string;

  /** SHA-256 (hex) of the method, the path and the body (see request-fingerprint.ts). */
  @Column({ type: 'char', length: 64 })
  fingerprint: string;

  @Column({ type: 'varchar', length: 10 })
  state: IdempotencyState;

  /** The status of the stored answer (`done` only). */
  @Column({ type: 'smallint', nullable: true })
  status: number | null;

  /**
   * The JSON body of the stored answer as sent, or null for an answer without one. Text, not
   * jsonb: jsonb would reorder the keys, and a replay must be the same bytes.
   */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  /** The claim that holds the key now: a request whose lease lapsed no longer matches it. */
  @Column({ type: 'uuid', nullable: true })
  claimId: string | null;

  /**
   * When the running claim's request committed a write (set in that write's transaction). A claim
   * with a write is never run again: once its lease lapses, the key answers idempotencyKeyApplied.
   */
  @Column({ type: 'timestamptz', nullable: true })
  appliedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  // The stored answers are the caller's: they go with the account.
  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  private readonly user?: unknown;
}
