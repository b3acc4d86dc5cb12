import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database';

/** The organization's team on the messaging server (`org-<uuid without dashes>`). */
@Entity('chat_team')
export class ChatTeamLink {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 64, unique: true })
  teamId: string;

  @Column({ type: 'varchar', length: 64 })
  teamName: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
