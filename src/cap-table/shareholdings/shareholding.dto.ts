import { SHAREHOLDING_STATUSES } from '../ledger/transactions';
import type { ShareholdingStatus } from '../ledger/ledger-state';
import { ApiPropertyOptional, IntersectionType, OmitType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { DateField, DecimalField, Omittable, PageQuery } from '../../common';

export class IssueShareholdingDto {
  /** The holder: a member of the organization. */
  @IsUUID()
  member: string;

  /** The share class. */
  @IsUUID()
  security: string;

  @DecimalField({ positive: true, example: '1000000' })
  quantity: string;

  @DecimalField({ optional: true, example: '0.0001' })
  pricePerShare?: string | null;

  @DateField()
  issueDate: string;

  /** Legend templates on the certificate; default the organization's default legends. */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  legendIds?: string[];

  /** What was given for the shares (cash, services, IP ...). */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  consideration?: string | null;
}

export class TransferDto {
  /** The shareholding the shares leave; a partial transfer leaves the balance with it. */
  @IsUUID()
  shareholding: string;

  /** The member who receives them. */
  @IsUUID()
  toMember: string;

  @DecimalField({ positive: true, example: '1000' })
  quantity: string;

  @DateField()
  date: string;

  /** Price paid per share; default the source's. */
  @DecimalField({ optional: true, example: '1.5' })
  pricePerShare?: string | null;
}

/**
 * PATCH: any of the editable fields. A change of holder or class is a transfer, not an edit.
 * Null clears the price or consideration; quantity, issue date and legends cannot be null.
 */
export class AmendShareholdingDto {
  @DecimalField({ optional: true, nullable: false, positive: true, example: '1000000' })
  quantity?: string;

  @DecimalField({ optional: true, example: '0.0001' })
  pricePerShare?: string | null;

  @DateField({ optional: true, nullable: false })
  issueDate?: string;

  @ApiPropertyOptional({ type: [String] })
  @Omittable()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  legendIds?: string[];

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(2000)
  consideration?: string | null;

  /** Accepted only unchanged (use a transfer to change the holder). */
  @IsOptional()
  @IsUUID()
  member?: string;

  /** Accepted only unchanged. */
  @IsOptional()
  @IsUUID()
  security?: string;
}

class RequiredEditables {
  @DecimalField({ positive: true, example: '1000000' })
  quantity: string;

  @DateField()
  issueDate: string;
}

/** PUT: the editable fields, all given (an omitted optional one becomes empty). */
export class ReplaceShareholdingDto extends IntersectionType(
  OmitType(AmendShareholdingDto, ['quantity', 'issueDate'] as const),
  RequiredEditables,
) {}

/** What the list filters by: a status of the registry's, or `all`. */
const STATUS_FILTERS = [...SHAREHOLDING_STATUSES, 'all'] as const;

export class ListShareholdingsQuery extends PageQuery {
  /**
   * `active` (default), `voided`, `transferred` (every share gone to others), another way a
   * shareholding ends, or `all`.
   */
  @ApiPropertyOptional({ enum: STATUS_FILTERS, default: 'active' })
  @IsOptional()
  @IsIn(STATUS_FILTERS)
  status?: ShareholdingStatus | 'all';
}
