import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Users with site-wide rights (`canReadSite`), granted by `npm run cli -- site-admin:grant`. */
@Entity('site_admin')
export class SiteAdmin {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  granted: Date;
}
