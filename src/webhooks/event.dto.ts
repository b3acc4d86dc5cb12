import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { EVENT_ID } from '../common';
import { PUBLIC_EVENT_TYPES, PublicEventType } from '../events';

export const MAX_EVENT_LIMIT = 100;

export class ListEventsQuery {
  @ApiPropertyOptional({ enum: PUBLIC_EVENT_TYPES, description: 'Only events of this type' })
  @IsOptional()
  @IsIn(PUBLIC_EVENT_TYPES, { message: 'type must be an event type of spec section 6' })
  type?: PublicEventType;

  @ApiPropertyOptional({ default: MAX_EVENT_LIMIT, minimum: 1, maximum: MAX_EVENT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_EVENT_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    pattern: EVENT_ID.source,
    description: 'Cursor: an event id of this organization; only events older than it',
  })
  @IsOptional()
  @Matches(EVENT_ID, { message: 'after must be an event id (evt_ + 32 hex characters)' })
  after?: string;
}
