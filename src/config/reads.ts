import { Transform } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { integer, oneOf, toInt } from './variable-rules';

/** How hot reads are answered: the in-process list cache, and the bound of one query. */
export class ReadsConfig {
  /**
   * `on`: hot lists (members, ...) are answered from an in-process cache keyed by the data's
   * versions, with ETags (`If-None-Match` → 304). `off`: computed on every request, no ETag.
   */
  @IsIn(['on', 'off'], oneOf(['on', 'off']))
  LIST_CACHE: 'on' | 'off' = 'on';

  @Transform(toInt)
  @IsInt(integer(1, 4096))
  @Min(1, integer(1, 4096))
  @Max(4096, integer(1, 4096))
  LIST_CACHE_MAX_MB = 64;

  /**
   * The most bytes the answers of one `POST /v1/query` may add up to (its reads are held in
   * memory until all are done); more → 413 `queryResponseTooLarge`.
   */
  @Transform(toInt)
  @IsInt(integer(1024, 1_073_741_824))
  @Min(1024, integer(1024, 1_073_741_824))
  @Max(1_073_741_824, integer(1024, 1_073_741_824))
  QUERY_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
}

export const readsSlice = configSlice({ name: 'reads', schema: ReadsConfig });
