import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches } from 'class-validator';
import { configSlice } from './slice';
import { emptyToUndefined } from './variable-rules';

/** The Redis server (or one the service starts) and the prefix of every key. */
export class RedisConfig {
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsString()
  REDIS_DATA_DIR = './.data/redis';

  @IsString()
  @Matches(/^[A-Za-z0-9:_-]*$/, {
    message: 'REDIS_PREFIX may hold only letters, digits, ":", "_" and "-"',
  })
  REDIS_PREFIX = 'ledgerline:';
}

export const redisSlice = configSlice({ name: 'redis', schema: RedisConfig });
