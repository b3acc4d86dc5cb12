import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/**
 * The organization's team on the messaging server and its private channel. The row is claimed
 * with their random names before either is made (`team_id` and `private_channel_id` null until
 * then), so the service only ever uses a team of a name no one else could know.
 */
@Entity('chat_team')
export class ChatTeamLink {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 64, unique: true, nullable: true })
  teamId: string | null;

  @Column({ type: 'varchar', length: 64 })
  teamName: string;

  /** Where the agent's replies go: its members are those who may read the cap table. */
  @Column({ type: 'varchar', length: 64 })
  privateChannelName: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  privateChannelId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
