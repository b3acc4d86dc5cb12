import { IsUUID } from 'class-validator';

export class ChatSessionDto {
  /** The organization whose team the session joins. */
  @IsUUID()
  organizationId: string;
}
