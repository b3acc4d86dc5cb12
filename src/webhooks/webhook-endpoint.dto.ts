import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PUBLIC_EVENT_TYPES } from '../events';

/** `events: ["*"]`: every type of the catalogue, today's and those added later. */
export const ALL_EVENTS = '*';
export const EVENT_CHOICES = [...PUBLIC_EVENT_TYPES, ALL_EVENTS];
const EVENTS_MESSAGE = `events must be event types of spec section 6, or ["${ALL_EVENTS}"]`;

class WebhookFieldsDto {
  @ApiPropertyOptional({
    type: [String],
    enum: EVENT_CHOICES,
    default: [ALL_EVENTS],
    description: 'Event types to deliver; `["*"]` (the default) for all',
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @ArrayUnique({ message: 'events must not repeat a type' })
  @IsIn(EVENT_CHOICES, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'Default true on registration; on PATCH `true` also clears `disabledAt` and `disabledReason`',
  })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CreateWebhookDto extends WebhookFieldsDto {
  @ApiProperty({
    maxLength: 2048,
    example: 'https://hooks.acme.test/ledgerline',
    description:
      '`https` (`http` too outside production), to global unicast addresses only (a host ' +
      'name: every address it resolves to); loopback, private, CGNAT, link-local and ' +
      'unique-local ones only with WEBHOOK_ALLOW_PRIVATE_URLS, cloud metadata addresses never',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookDto extends WebhookFieldsDto {
  @ApiPropertyOptional({ maxLength: 2048, description: 'Checked as at registration' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: 500,
    nullable: true,
    description: 'null clears it',
  })
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;
}
