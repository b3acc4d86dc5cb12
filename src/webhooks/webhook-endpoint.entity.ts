import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../database';

/** Why an endpoint was disabled by delivery: it answered 410 Gone, or failed for 3 days. */
export const DISABLED_REASONS = ['gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

export interface RetiredSecret {
  secret: string;
  expires: string;
}

/** An organization's outbound webhook endpoint (spec section 6). */
@Entity('webhook_endpoint')
@Index('webhook_endpoint_organization_idx', ['organizationId', 'created'])
export class WebhookEndpoint {
  /** `wh_` + 32 lowercase hex characters. */
  @PrimaryColumn({ type: 'varchar', length: 35 })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Event types of the catalogue, or `['*']` for all. */
  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** The signing secret (`whsec_…`), sealed with the SecretBox and bound to the endpoint id. */
  @Column({ type: 'text' })
  secret: string;

  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  disabledReason: DisabledReason | null;

  /**
   * Secrets replaced by a rotation that still sign deliveries until `expires` (ISO time), each
   * sealed like `secret`.
   */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  retiredSecrets: RetiredSecret[];

  /** The first failed attempt since the last success; null while healthy. */
  @Column({ type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  /** The delivery worker holding the endpoint (one sends at a time), and until when. */
  @Column({ type: 'uuid', nullable: true })
  leaseToken: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
