import { Column, Entity, OneToOne, JoinColumn, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../users/user.entity';

/** Per-user onboarding progress and UI preferences (spec section 2, User state). */
@Entity('user_state')
export class UserState {
  @PrimaryColumn('uuid')
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'jsonb', default: [] })
  completedSteps: string[];

  @Column({ type: 'jsonb', default: {} })
  preferences: Record<string, string>;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;
}
