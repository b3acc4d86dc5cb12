import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type LegalEntityKind = 'person' | 'organization';

/**
 * A legal person that can hold securities, pay or receive credit: every organization has one,
 * every user has a personal one, and a member without an account may have one.
 */
@Entity('entity')
export class LegalEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 20 })
  kind: LegalEntityKind;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
