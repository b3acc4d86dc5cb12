import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The version of one table's rows of an organization (`resource` is the table's name: `member`,
 * `shareholding` ...), bumped by the database at the commit of every transaction that wrote them
 * (migration TableVersions: the tables a cached list reads are tracked). Cached lists and their
 * ETags are keyed by these versions, so a committed write is visible to the next read on every
 * instance, whatever path wrote it.
 */
@Entity('resource_version')
export class ResourceVersion {
  @PrimaryColumn('uuid')
  organizationId: string;

  @PrimaryColumn({ type: 'varchar', length: 60 })
  resource: string;

  @Column({ type: 'bigint', default: 0 })
  version: string;
}
