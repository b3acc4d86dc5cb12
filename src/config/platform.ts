import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { integer, IntegerIn, oneOf, toBool, toInt } from './variable-rules';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The process itself: its mode, its port, its log, its OpenAPI page and how it stops. */
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

  /**
   * On SIGTERM (SIGINT, SIGHUP) the process stops accepting connections, then has this long to
   * answer the requests it holds and finish its active background jobs (a webhook send waits up
   * to 30 s) before it closes; past it, it exits at once (exit 1) and Bull retries what was cut.
   */
  @Transform(toInt)
  @IntegerIn(1, 3_600_000)
  SHUTDOWN_GRACE_MS = 30_000;
}

export const platformSlice = configSlice({ name: 'platform', schema: PlatformConfig });
