import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * The index of the productivity-suite store: our UUID (what the routes, the guard and the events
 * name) for a Graph drive item of an organization's folder. `root` marks the organization's own
 * folder (`<MICROSOFT_ROOT_FOLDER>/<organization id>`), which no route addresses.
 */
@Entity('suite_item')
@Index('suite_item_item_uq', ['itemId'], { unique: true })
@Index('suite_item_root_uq', ['organizationId'], { unique: true, where: 'root' })
export class SuiteItem {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  /** Graph's id of the drive item (unique within the drive). */
  @Column({ type: 'varchar', length: 200 })
  itemId: string;

  @Column({ type: 'boolean', default: false })
  root: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
