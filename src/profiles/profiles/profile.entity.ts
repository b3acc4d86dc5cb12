import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A person's profile (spec 4.5). Owned by one user: only they may change it. */
@Entity('profile')
export class Profile {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The user the profile belongs to; null for a member who never logs in. */
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  firstName: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  lastName: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 120, nullable: true })
  title: string | null;

  @Column({ type: 'uuid', nullable: true })
  avatarFileId: string | null;

  @Column({ type: 'varchar', length: 35, nullable: true })
  locale: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  timezone: string | null;

  /** The user's personal postal address. */
  @Column({ type: 'uuid', nullable: true })
  addressId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;
}
