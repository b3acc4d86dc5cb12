import { ApiProperty } from '@nestjs/swagger';

export class ChatConfigView {
  enabled: boolean;
  /** Where browsers reach the messaging server (CHAT_PUBLIC_URL); null while chat is off. */
  baseUrl: string | null;
}

export class ChatSessionView {
  /** A personal access token of the user's chat account (shown here only). */
  token: string;
  baseUrl: string;
  /** The organization's team (`org-` and 32 random hex characters, chosen when it was made). */
  teamName: string;
  /** The user's id on the messaging server. */
  chatUserId: string;
}

export class SyncView {
  /** Active members with a user account who are in the team after the run. */
  synced: number;
}

export const TOKEN_PROBLEMS = ['no_token', 'revoked', 'check_failed'] as const;

export class TokenHealthView {
  valid: boolean;
  /**
   * Why not: `no_token` (none stored: open a session), `revoked` (the server refused it; it is
   * forgotten, the next session makes another), `check_failed` (the server did not answer; try later).
   */
  @ApiProperty({ enum: TOKEN_PROBLEMS, required: false })
  reason?: (typeof TOKEN_PROBLEMS)[number];
}

export class TeamMappingView {
  organizationId: string;
}

export class UserMappingView {
  /** The Ledgerline user of the chat user; null when none is mapped. */
  @ApiProperty({ type: String, nullable: true })
  userId: string | null;
}
