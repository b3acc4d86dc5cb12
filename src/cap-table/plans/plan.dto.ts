import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { DateField, DecimalField, Trim } from '../../common';
import { CANCELLATION_BEHAVIORS, CancellationBehavior } from '../ledger/incentive-types';

/** More pools than any real plan has; keeps one request's transaction bounded. */
export const MAX_POOLS = 100;

/** A pool as the plan’s POST creates it, and `POST /v1/plan/:plan/pool` adds one. */
export class NewPoolDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** Its part of the plan's reservation. */
  @DecimalField({ example: '500000' })
  sharesReserved: string;
}

/** A pool in the plan's PUT: with `id` one of the plan's pools is kept (and updated), without one it is created. */
export class PoolDto extends NewPoolDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  id?: string;
}

/** What POST and PUT share (OCF StockPlan). */
class PlanFieldsDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** Shares of the class held back for the plan's grants: out of the class's unissued shares. */
  @DecimalField({ example: '1000000' })
  sharesReserved: string;

  @DateField({ optional: true })
  boardApprovalDate?: string | null;

  @DateField({ optional: true })
  stockholderApprovalDate?: string | null;

  /** What a cancelled grant does by default: go back to its pool, or leave the plan; default `return_to_pool`. */
  @ApiPropertyOptional({ enum: CANCELLATION_BEHAVIORS, default: 'return_to_pool' })
  @IsOptional()
  @IsIn(CANCELLATION_BEHAVIORS)
  defaultCancellationBehavior?: CancellationBehavior | null;
}

/** `POST /v1/organization/:organization/plan`. */
export class CreatePlanDto extends PlanFieldsDto {
  /** The share class the plan's grants exercise into. */
  @IsUUID()
  security: string;

  /** The plan's pools; may be empty (pools can be added by a PUT). Default none. */
  @ApiPropertyOptional({ type: [NewPoolDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_POOLS)
  @ValidateNested({ each: true })
  @Type(() => NewPoolDto)
  pools?: NewPoolDto[];
}

/**
 * `PUT /v1/plan/:plan`: the whole plan. Omitted optional fields take their defaults (dates none,
 * behavior `return_to_pool`); `pools` is required, because a pool left out is deleted.
 */
export class ReplacePlanDto extends PlanFieldsDto {
  /** The plan's class cannot change: when given it must be the plan's. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  security?: string;

  @IsArray()
  @ArrayMaxSize(MAX_POOLS)
  @ValidateNested({ each: true })
  @Type(() => PoolDto)
  pools: PoolDto[];
}
