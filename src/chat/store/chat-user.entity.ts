import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** Which messaging-server user a Ledgerline user is (made or adopted by a chat session). */
@Entity('chat_user')
export class ChatUserLink {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 64, unique: true })
  chatUserId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
