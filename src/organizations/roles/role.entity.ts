import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * A custom role of one organization. Built-in roles (Owner, Admin, Editor, Viewer, Shareholder)
 * are rows with `organizationId` null and fixed ids; their permissions come from the permission
 * table in code, not from this row.
 */
@Entity('role')
@Index('role_org_name_uq', ['organizationId', 'name'], {
  unique: true,
  where: 'organization_id IS NOT NULL AND deleted_at IS NULL',
})
export class Role {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', nullable: true })
  organizationId: string | null;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', array: true, default: '{}' })
  permissions: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  /** Deleted roles are kept: removed members still name the role they had. */
  @DeleteDateColumn({ type: 'timestamptz' })
  deletedAt: Date | null;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
