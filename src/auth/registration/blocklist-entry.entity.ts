import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

export type BlocklistKind = 'address' | 'domain';

/** A blocked e-mail address or domain (a domain also blocks its subdomains). */
@Entity('email_blocklist_entry')
@Unique('email_blocklist_entry_kind_value_uq', ['kind', 'value'])
export class BlocklistEntry {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 10 })
  kind: BlocklistKind;

  /** Lower case. */
  @Column({ type: 'varchar', length: 320 })
  value: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
