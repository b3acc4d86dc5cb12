import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** A run of numbered shares of a class held under one shareholding (`from` to `to`, inclusive). */
@Entity('share_block')
@Index('share_block_holding_idx', ['shareholdingId'])
@Index('share_block_org_idx', ['organizationId', 'securityId', 'fromNumber'])
export class ShareBlock {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  securityId: string;

  @Column({ type: 'uuid' })
  shareholdingId: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  fromNumber: string;

  @Column({ type: 'numeric', precision: 38, scale: 10 })
  toNumber: string;

  @ForeignKey('Shareholding', 'shareholding_id')
  private readonly shareholding?: unknown;
}
