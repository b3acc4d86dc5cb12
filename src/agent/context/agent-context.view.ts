import { ApiProperty } from '@nestjs/swagger';

class LimitView {
  @ApiProperty()
  limit: number;

  @ApiProperty()
  remaining: number;

  @ApiProperty({ description: 'End of the window, unix seconds' })
  reset: number;
}

class LimitsView {
  @ApiProperty({ type: LimitView, description: 'Tool calls per minute' })
  toolCalls: LimitView;

  @ApiProperty({ type: LimitView, description: 'Executed writes per minute' })
  writes: LimitView;

  @ApiProperty({ type: LimitView, description: 'Executed destructive actions per hour' })
  destructive: LimitView;

  @ApiProperty({
    type: LimitView,
    description: 'Chat turns per hour (AGENT_TURNS_PER_USER_PER_HOUR)',
  })
  turns: LimitView;

  @ApiProperty({
    type: LimitView,
    description:
      'The organization’s language-model tokens today (AGENT_ORG_DAILY_TOKENS, shared by its ' +
      'members, heartbeats and hook runs); `reset` is the next midnight UTC',
  })
  tokens: LimitView;
}

class CapabilitiesView {
  @ApiProperty({ description: 'Writes wait for a confirmation (destructive actions always do)' })
  confirmWrites: boolean;

  @ApiProperty({ type: [String], description: 'The tools offered to this caller' })
  tools: string[];
}

class OrganizationSummaryView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  legalName: string | null;

  @ApiProperty()
  currency: string;

  @ApiProperty()
  type: string;
}

class CountsView {
  @ApiProperty({ description: 'Current members' })
  members: number;

  @ApiProperty({ description: 'Members holding active shares' })
  shareholders: number;

  @ApiProperty({
    description: 'Members with active shares or an active grant, warrant or convertible',
  })
  stakeholders: number;
}

export class AgentContextView {
  @ApiProperty({ type: OrganizationSummaryView })
  organization: OrganizationSummaryView;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The caller’s role' })
  role: string | null;

  @ApiProperty({ type: [String], description: 'The permissions of the caller’s role' })
  permissions: string[];

  @ApiProperty({ type: CountsView })
  counts: CountsView;

  @ApiProperty({ type: CapabilitiesView })
  capabilities: CapabilitiesView;

  @ApiProperty({
    type: LimitsView,
    description: 'The caller’s agent limits now (the tokens: the organization’s)',
  })
  limits: LimitsView;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'The organization’s shared conversation; null for a member without `canViewCapTable`, ' +
      'who may not take part in it',
  })
  mainConversationId: string | null;
}
