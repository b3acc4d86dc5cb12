import { ApiProperty } from '@nestjs/swagger';
import { EVENT_ID } from '../common';
import { API_VERSION, PUBLIC_EVENT_TYPES } from '../events';

class EventDataView {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The full resource at the time of the event, as the API returns it',
  })
  object: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'For `.updated` events only the changed fields with their previous values; `{}` otherwise',
  })
  previous_attributes: Record<string, unknown>;
}

/** A stored event: the envelope of spec section 6, as deliveries carry it. */
export class EventView {
  @ApiProperty({ pattern: EVENT_ID.source, example: 'evt_0123456789abcdef0123456789abcdef' })
  id: string;

  @ApiProperty({ enum: PUBLIC_EVENT_TYPES, example: 'member.added' })
  type: string;

  @ApiProperty({
    example: API_VERSION,
    description: 'Date-based version of the payload that generated the event',
  })
  api_version: string;

  @ApiProperty({ format: 'date-time' })
  created: string;

  @ApiProperty({ format: 'uuid' })
  organization: string;

  @ApiProperty({ type: EventDataView })
  data: EventDataView;
}

export class EventListView {
  @ApiProperty({ type: [EventView], description: 'The events, newest first' })
  data: EventView[];
}
