import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { documentSchemas, EVENT_ID } from '../common';
import { API_VERSION, documentedEventObject, PUBLIC_EVENT_TYPES } from '../events';
import type { PublicEventType } from '../events';

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

const schemaName = (type: PublicEventType) => `Event_${type}`;
const ref = (type: PublicEventType) => `#/components/schemas/${schemaName(type)}`;

/**
 * The contract lists each public event type under its own component (`Event_member.added`): the
 * envelope with its `type` and the schema of its `data.object`, as the module that records it
 * documents it (`documentEventObjects`); one that documents none keeps the envelope's free object.
 */
documentSchemas(() =>
  Object.fromEntries(
    PUBLIC_EVENT_TYPES.map((type) => {
      const object = documentedEventObject(type);
      return [
        schemaName(type),
        {
          allOf: [
            { $ref: getSchemaPath(EventView) },
            {
              type: 'object',
              properties: {
                type: { type: 'string', enum: [type] },
                ...(object && { data: { type: 'object', properties: { object } } }),
              },
            },
          ],
        },
      ];
    }),
  ),
);

/** A stored event, by its type (a `oneOf` discriminated by `type`). */
export const EVENT_SCHEMA = {
  oneOf: PUBLIC_EVENT_TYPES.map((type) => ({ $ref: ref(type) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(PUBLIC_EVENT_TYPES.map((type) => [type, ref(type)])),
  },
};

export class EventListView {
  @ApiProperty({ type: 'array', items: EVENT_SCHEMA, description: 'The events, newest first' })
  data: EventView[];
}
