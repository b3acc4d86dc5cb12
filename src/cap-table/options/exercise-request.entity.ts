import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';
import type { ExerciseRequestStatus } from '../ledger/ledger-state';

/** A holder's request to exercise, pending until an editor exercises (approves) or rejects it. */
@Entity('exercise_request')
@Index('exercise_request_holding_idx', ['holdingId'])
export class ExerciseRequest {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  holdingId: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  quantity: string;

  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  paymentMethod: string | null;

  @Column({ type: 'uuid', nullable: true })
  requestedByUserId: string | null;

  @Column({ type: 'varchar', length: 20 })
  status: ExerciseRequestStatus;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;

  @ForeignKey('Holding', 'holding_id')
  private readonly holding?: unknown;
}
