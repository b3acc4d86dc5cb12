import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_ID } from '../../common';
import { PUBLIC_EVENT_TYPES } from '../../events';
import { RESPONSE_BODY_BYTES } from './webhook-attempt.entity';

const DELIVERY_ID = {
  pattern: '^whd_[0-9a-f]{32}$',
  example: 'whd_0123456789abcdef0123456789abcdef',
};

class EventRefView {
  @ApiProperty({ pattern: EVENT_ID.source })
  id: string;

  @ApiProperty({ enum: PUBLIC_EVENT_TYPES })
  type: string;
}

/** Spec section 6's answer to a test delivery. */
export class TestDeliveryView {
  @ApiProperty({ description: 'true when the endpoint answered 2xx' })
  success: boolean;

  @ApiProperty(DELIVERY_ID)
  deliveryId: string;

  @ApiProperty({ description: 'The status received; 0 when no response came' })
  httpStatus: number;

  @ApiProperty({ description: 'Milliseconds until the response (or the failure)' })
  responseTime: number;

  @ApiProperty({ type: EventRefView })
  event: EventRefView;

  @ApiPropertyOptional({ description: 'Why the attempt failed; only on failure' })
  error?: string;
}

export class ResendView {
  @ApiProperty({ ...DELIVERY_ID, description: 'The new delivery, attempted at once' })
  deliveryId: string;

  @ApiProperty({ type: EventRefView })
  event: EventRefView;
}

export class RotatedSecretView {
  @ApiProperty({ description: 'The new secret (`whsec_…`), shown only here' })
  secret: string;

  @ApiProperty({
    format: 'date-time',
    description: 'Until then the previous secret also signs every delivery (one `v1` each)',
  })
  previousSecretExpiresAt: string;
}

export class AttemptView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ pattern: EVENT_ID.source })
  eventId: string;

  @ApiProperty({ enum: PUBLIC_EVENT_TYPES })
  eventType: string;

  @ApiProperty({ description: '1 for the first attempt of its delivery, up to 6' })
  attempt: number;

  @ApiProperty({ format: 'date-time', description: 'When it was sent' })
  timestamp: string;

  @ApiProperty({ description: 'The status received; 0 when no response came' })
  httpStatus: number;

  @ApiProperty({ description: 'Milliseconds' })
  responseTime: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: `The response body's first ${RESPONSE_BODY_BYTES} bytes; null when no response came`,
  })
  responseBody: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why no response came (URL refused, network error, timeout); null otherwise',
  })
  error: string | null;
}

export class AttemptListView {
  @ApiProperty({ type: [AttemptView], description: 'Newest first' })
  data: AttemptView[];
}
