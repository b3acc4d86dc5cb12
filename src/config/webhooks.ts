import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { configSlice } from './slice';
import { toBool } from './variable-rules';

/** Outbound webhooks. */
export class WebhooksConfig {
  /**
   * Outbound webhooks may target loopback, private, CGNAT, link-local and unique-local addresses
   * (a receiver on the same network) besides global unicast ones; unset: false. Metadata addresses
   * and the other special-purpose ranges stay refused regardless.
   */
  @Transform(toBool)
  @IsOptional()
  @IsBoolean({ message: 'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS?: boolean;
}

export const webhooksSlice = configSlice({ name: 'webhooks', schema: WebhooksConfig });
