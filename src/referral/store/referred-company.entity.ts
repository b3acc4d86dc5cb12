import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** A company a user refers to the service (`POST /v1/referral/company`). */
@Entity('referred_company')
@Index('referred_company_website_uq', ['userId', 'websiteKey'], {
  unique: true,
  where: 'website_key IS NOT NULL',
})
@Index('referred_company_contact_uq', ['userId', 'contactEmail'], { unique: true })
export class ReferredCompany {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  website: string | null;

  /** The website's host, lower-case and without `www.`: what "the same website" means. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  websiteKey: string | null;

  /** Normalised (`normalizeEmail`). */
  @Column({ type: 'varchar', length: 320 })
  contactEmail: string;

  @Column({ type: 'text', nullable: true })
  note: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
