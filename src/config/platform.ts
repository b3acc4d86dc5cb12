import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { integer, oneOf, toBool, toInt } from './variable-rules';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The process itself: its mode, its port, its log and its OpenAPI page. */
export class PlatformConfig {
  @IsIn(NODE_ENVS, oneOf(NODE_ENVS))
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @Transform(toInt)
  @IsInt(integer(0, 65535))
  @Min(0, integer(0, 65535))
  @Max(65535, integer(0, 65535))
  PORT = 3000;

  @IsIn(LOG_LEVELS, oneOf(LOG_LEVELS))
  LOG_LEVEL: LogLevelName = 'log';

  @Transform(toBool)
  @IsOptional()
  @IsBoolean({ message: 'SWAGGER_ENABLED must be true or false' })
  SWAGGER_ENABLED?: boolean;
}

export const platformSlice = configSlice({ name: 'platform', schema: PlatformConfig });
