import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Any JSON value: a route's answer as the route gives it. */
const ANY_JSON = {
  nullable: true,
  oneOf: [
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
  ],
};

export class ToolCallView {
  @ApiProperty({ description: 'The model’s tool_use id' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  input: Record<string, unknown>;

  @ApiProperty({ enum: ['executed', 'pending', 'failed'] })
  status: 'executed' | 'pending' | 'failed';

  @ApiPropertyOptional({ ...ANY_JSON, description: 'The route’s answer, when executed' })
  result?: unknown;

  @ApiPropertyOptional()
  error?: string;
}

export class PendingConfirmationView {
  @ApiProperty({ format: 'uuid' })
  stepId: string;

  @ApiProperty()
  tool: string;

  @ApiProperty({ enum: ['write', 'destructive'] })
  kind: 'write' | 'destructive';

  @ApiProperty({ type: 'object', additionalProperties: true })
  input: Record<string, unknown>;

  @ApiProperty({ description: 'What it would do, in words' })
  summary: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class ChatView {
  @ApiProperty({ description: 'The agent’s answer (its last text)' })
  response: string;

  @ApiProperty({ format: 'uuid' })
  conversationId: string;

  @ApiProperty({
    description: 'true when the turn stopped at AGENT_MAX_TOOL_ROUNDS rounds of tools',
  })
  truncated: boolean;

  @ApiProperty({ type: [ToolCallView] })
  toolCalls: ToolCallView[];

  @ApiProperty({ type: [PendingConfirmationView] })
  pendingConfirmations: PendingConfirmationView[];
}

export class ConfirmView {
  @ApiProperty({ format: 'uuid' })
  stepId: string;

  @ApiProperty({ enum: ['executed', 'rejected', 'failed'] })
  status: 'executed' | 'rejected' | 'failed';

  @ApiPropertyOptional({ ...ANY_JSON, description: 'The route’s answer, when executed' })
  result?: unknown;

  @ApiPropertyOptional({ description: 'Why it failed (e.g. the permission is no longer held)' })
  error?: string;
}
