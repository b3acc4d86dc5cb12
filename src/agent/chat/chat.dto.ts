import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/** Characters of one message the agent takes. */
export const MAX_MESSAGE_CHARS = 20_000;
export const MAX_HISTORY = 50;

export class HistoryMessageDto {
  @ApiProperty({ enum: ['user', 'assistant'] })
  @IsIn(['user', 'assistant'], { message: 'history: role must be user or assistant' })
  role: 'user' | 'assistant';

  @ApiProperty({ maxLength: MAX_MESSAGE_CHARS })
  @IsString({ message: 'history: content must be a string' })
  @MaxLength(MAX_MESSAGE_CHARS)
  content: string;
}

export class ChatDto {
  @ApiProperty({ format: 'uuid', description: 'The organization the conversation is about' })
  @IsUUID('all')
  organization: string;

  @ApiProperty({ maxLength: MAX_MESSAGE_CHARS })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_MESSAGE_CHARS)
  message: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Continue this conversation (the caller’s own, or the organization’s main one)',
  })
  @IsOptional()
  @IsUUID('all')
  conversationId?: string;

  @ApiPropertyOptional({
    type: [HistoryMessageDto],
    maxItems: MAX_HISTORY,
    description:
      'Seeds a new conversation only: roles alternate from `user` to a final `assistant`',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HISTORY)
  @ValidateNested({ each: true })
  @Type(() => HistoryMessageDto)
  history?: HistoryMessageDto[];
}

export class ConfirmDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  stepId: string;

  @ApiProperty({ description: 'true runs the step, false rejects it' })
  @IsBoolean()
  confirmed: boolean;
}
