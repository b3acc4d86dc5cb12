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

/** A mailed 6-digit code; only its keyed digest is stored. Lives 24 h, a few wrong tries at most. */
@Entity('email_verification_code')
export class EmailVerificationCode {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('email_verification_code_user_idx')
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 64 })
  codeDigest: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'integer', default: 0 })
  failedAttempts: number;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;
}
