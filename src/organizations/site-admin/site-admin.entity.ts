import { CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../auth/users/user.entity';

/** Users with site-wide rights (`canReadSite`), granted by `npm run cli -- site-admin:grant`. */
@Entity('site_admin')
export class SiteAdmin {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  granted: Date;

  // Foreign key only: the id above is what the code reads and writes.
  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'user_id' })
  private readonly user?: User;
}
