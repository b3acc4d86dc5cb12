import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type LegalEntityKind = 'person' | 'organization';

/**
 * A legal person that can hold securities, pay or receive credit: every organization has one,
 * every user has a personal one, and a member without an account has one made for them.
 * `organizationId` and `ownerUserId` say whose record it is, for the permission guard.
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

  /** The organization this is the own entity of. */
  @Index('entity_organization_idx')
  @Column({ type: 'uuid', nullable: true })
  organizationId: string | null;

  /** The user this is the personal entity of. */
  @Index('entity_owner_user_idx')
  @Column({ type: 'uuid', nullable: true })
  ownerUserId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
