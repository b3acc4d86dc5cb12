import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';
import { configSlice } from './slice';
import { IntegerIn, toBool, toInt } from './variable-rules';

/** The request rate limit every API request counts against (spec section 8). */
export class LimitsConfig {
  /**
   * `true`: every API request but health checks and machine callers' routes counts per session
   * (per client IP without one), shared by every instance through Redis; past the limit 429.
   */
  @Transform(toBool)
  @IsBoolean({ message: 'RATE_LIMIT_ENABLED must be true or false' })
  RATE_LIMIT_ENABLED = false;

  /** Requests per caller per minute (a fixed window) with RATE_LIMIT_ENABLED. */
  @Transform(toInt)
  @IntegerIn(1, 1_000_000)
  RATE_LIMIT_PER_MINUTE = 600;
}

export const limitsSlice = configSlice({ name: 'limits', schema: LimitsConfig });
