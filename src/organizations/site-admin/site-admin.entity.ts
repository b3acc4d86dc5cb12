import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** Users with site-wide rights (`canReadSite`), granted by `npm run cli -- site-admin:grant`. */
@Entity('site_admin')
export class SiteAdmin {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  granted: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
