import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * The user's personal access token on the messaging server: sealed (AES-256-GCM, SecretBox,
 * bound to the user id), its plaintext only ever in the session answer.
 */
@Entity('chat_token')
export class ChatToken {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  /** The server's id of the token (to revoke it). */
  @Column({ type: 'varchar', length: 64 })
  tokenId: string;

  @Column({ type: 'text' })
  tokenCiphertext: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('User', 'user_id')
  private readonly user?: unknown;
}
