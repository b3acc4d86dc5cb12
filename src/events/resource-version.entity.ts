import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The version of one kind of record of an organization (`member`, `role`, later `shareholding`
 * ...), bumped in the transaction of every change that records a domain event about it. Cached
 * lists and their ETags are keyed by these versions, so a committed write is visible to the next
 * read on every instance.
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
