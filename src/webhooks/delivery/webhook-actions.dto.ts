import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { PUBLIC_EVENT_TYPES, PublicEventType } from '../../events';

export const DEFAULT_TEST_EVENT: PublicEventType = 'organization.updated';
export const MAX_ATTEMPT_LIMIT = 100;
export const DEFAULT_ATTEMPT_LIMIT = 50;

export class TestWebhookDto {
  @ApiPropertyOptional({ enum: PUBLIC_EVENT_TYPES, default: DEFAULT_TEST_EVENT })
  @IsOptional()
  @IsIn(PUBLIC_EVENT_TYPES, { message: 'event_type must be an event type of spec section 6' })
  event_type?: PublicEventType;
}

export class ListAttemptsQuery {
  @ApiPropertyOptional({ default: DEFAULT_ATTEMPT_LIMIT, minimum: 1, maximum: MAX_ATTEMPT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ATTEMPT_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Cursor: an attempt id of this endpoint; only older attempts follow',
  })
  @IsOptional()
  @IsUUID('all', { message: 'after must be an attempt id' })
  after?: string;
}
