import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { User } from '../users/user.entity';

/** A magic-link token (spec 5.4): stored as a keyed digest, 15 minutes, single use. */
@Entity('magic_link_token')
export class MagicLinkToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('magic_link_token_user_idx')
  @Column({ type: 'uuid' })
  userId: string;

  @Index('magic_link_token_digest_uq', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenDigest: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
