import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A provider webhook handled (by its id): a repeat is answered without being applied again. */
@Entity('billing_webhook')
export class ReceivedWebhook {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  event: string;

  /** The organization it was about, when found. */
  @Column({ type: 'uuid', nullable: true })
  organizationId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  received: Date;
}
