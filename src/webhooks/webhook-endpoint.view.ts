import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_ID } from '../common';
import { PUBLIC_EVENT_TYPES } from '../events';
import { EVENT_CHOICES } from './webhook-endpoint.dto';
import { DISABLED_REASONS } from './webhook-endpoint.entity';

export class LastDelivery {
  @ApiProperty({ format: 'date-time' })
  timestamp: string;

  @ApiProperty({
    enum: ['pending', 'succeeded', 'failed'],
    description: '`pending` while retries are left',
  })
  status: 'pending' | 'succeeded' | 'failed';

  @ApiProperty({ description: 'Status of the last attempt; 0 when no response came' })
  httpStatus: number;

  @ApiProperty({ enum: PUBLIC_EVENT_TYPES })
  eventType: string;
}

class WebhookFieldsView {
  @ApiProperty({ pattern: WEBHOOK_ID.source, example: 'wh_0123456789abcdef0123456789abcdef' })
  id: string;

  @ApiProperty()
  url: string;

  @ApiProperty({ type: [String], enum: EVENT_CHOICES })
  events: string[];

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty()
  active: boolean;

  @ApiProperty({ format: 'date-time' })
  created: string;
}

/** The answer to the registration: the only one that shows the secret. */
export class CreatedWebhookView extends WebhookFieldsView {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2Ywk1xATmT0=',
    description: '`whsec_` + base64 of 32 random bytes; shown only here',
  })
  secret: string;
}

/** An endpoint as listed and changed; never its secret. */
export class WebhookView extends WebhookFieldsView {
  @ApiProperty({
    type: LastDelivery,
    nullable: true,
    description: 'null before the first delivery',
  })
  lastDelivery: LastDelivery | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  disabledAt: string | null;

  @ApiProperty({
    type: String,
    enum: DISABLED_REASONS,
    nullable: true,
    description: '`gone` (answered 410) or `failing` (3 days of failures); null while enabled',
  })
  disabledReason: string | null;
}

export class WebhookListView {
  @ApiProperty({ type: [WebhookView], description: 'The endpoints, oldest first' })
  data: WebhookView[];
}
