import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../../database';

/**
 * The organization's one connection to a cloud drive. Its grant (tokens and the account's
 * e-mail) is sealed bound to the organization (`drive-connection:<organization>`); disconnecting
 * wipes it and leaves the row inactive, so a reconnect keeps its id and configurations.
 */
@Entity('drive_connection')
export class DriveConnection {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid', unique: true })
  organizationId: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  /** Null once disconnected. */
  @Column({ type: 'text', nullable: true })
  grantCiphertext: string | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  lastSyncAt: Date | null;

  /** Why the last run could not use the grant (refused by the provider); cleared by a connect. */
  @Column({ type: 'text', nullable: true })
  syncError: string | null;

  @Column({ type: 'uuid', nullable: true })
  connectedByUserId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
