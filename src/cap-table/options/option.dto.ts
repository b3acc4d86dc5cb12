import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { DateField, DecimalField } from '../../common';

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;

/** How the exercise price is paid: free text (cash, wire, cashless, net exercise ...). */
const PaymentMethod = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, example: 'wire', maxLength: 100, nullable: true }),
    Transform(trimmed),
    IsOptional(),
    IsString(),
    MinLength(1),
    MaxLength(100),
  );

/** A holder's request to exercise part of their option. */
export class ExerciseRequestDto {
  @DecimalField({ positive: true, example: '1200' })
  quantity: string;

  /** The exercise date wanted; default today. */
  @DateField({ optional: true, nullable: false })
  date?: string;

  @PaymentMethod()
  paymentMethod?: string | null;
}

/**
 * An editor's exercise, or the approval of a pending request (`requestId`): the request gives the
 * quantity, date and payment method the body leaves out.
 */
export class ExerciseDto {
  /** Required without `requestId`; with it, default the request's quantity. */
  @ApiPropertyOptional({
    type: String,
    example: '1200',
    description: 'Decimal string; required without `requestId` (default the request’s quantity)',
  })
  @ValidateIf((o: ExerciseDto) => o.requestId === undefined || o.quantity !== undefined)
  @DecimalField({ positive: true, example: '1200' })
  quantity?: string;

  /** Default the request's date with `requestId`, else today. */
  @DateField({ optional: true, nullable: false })
  date?: string;

  /** Default the request's with `requestId`. */
  @PaymentMethod()
  paymentMethod?: string | null;

  /** A pending exercise request of this option, which this exercise approves. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  requestId?: string;
}
