import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../../database';

export const ORGANIZATION_TYPES = ['corporation', 'llc', 'other'] as const;
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

/** Where the organization's documents live: the data room, or the productivity-suite store. */
export const DOCUMENT_STORES = ['dataRoom', 'suite'] as const;
export type DocumentStore = (typeof DOCUMENT_STORES)[number];

/** A company whose cap table is kept here. */
@Entity('organization')
export class Organization {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 300, nullable: true })
  legalName: string | null;

  /** ISO 3166-1 alpha-2. */
  @Column({ type: 'char', length: 2, nullable: true })
  country: string | null;

  /** ISO 4217. */
  @Column({ type: 'char', length: 3, default: 'USD' })
  currency: string;

  @Column({ type: 'varchar', length: 20, default: 'corporation' })
  type: OrganizationType;

  /** Set at creation; changes only while the organization has no documents. */
  @Column({ type: 'varchar', length: 10, default: 'dataRoom' })
  documentStore: DocumentStore;

  /** The organization's own legal entity. */
  @Column({ type: 'uuid', unique: true })
  entityId: string;

  /** Registered address. */
  @Column({ type: 'uuid', nullable: true })
  addressId: string | null;

  @Column({ type: 'uuid', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  /** Set by `DELETE /v1/organization/:organization`: the rows stay for the audit trail, unread. */
  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @ForeignKey('LegalEntity', 'entity_id')
  private readonly entity?: unknown;

  @ForeignKey('Address', 'address_id')
  private readonly address?: unknown;
}
