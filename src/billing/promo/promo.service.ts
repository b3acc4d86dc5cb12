import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock, RateLimiter } from '../../common';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';
import { centsToDecimal } from '../money';
import { BillingProvider } from '../provider/billing-provider';
import { PromoView } from './promo.view';

/** Codes tried per user and minute: enough to correct a typo, too few to guess codes. */
export const PROMO_LIMIT = { limit: 10, windowMs: 60_000 };

/** Promotion codes (the provider's coupons): whether one may be used, and what it gives. */
@Injectable()
export class PromoService implements OnModuleDestroy {
  private readonly redis: Redis;
  private readonly limiter: RateLimiter;

  constructor(
    private readonly provider: BillingProvider,
    private readonly env: Env,
    connections: RedisConnections,
    private readonly clock: Clock,
  ) {
    this.redis = connections.session();
    this.limiter = new RateLimiter(this.redis, `${connections.prefix}promo:`, PROMO_LIMIT, clock);
  }

  onModuleDestroy() {
    this.redis.disconnect();
  }

  async validate(userId: string, code: string, now = this.clock.now()): Promise<PromoView> {
    await this.limiter.consume(userId);
    const coupon = await this.provider.validateCoupon(code);
    if (!coupon) return { valid: false, reason: 'unknown' };
    const ended = coupon.end_date !== null && new Date(coupon.end_date) <= now;
    if (coupon.archived_at || ended) return { valid: false, reason: 'expired' };
    const off =
      coupon.percentage !== null
        ? { percentOff: plainDecimal(coupon.percentage) }
        : { amountOff: centsToDecimal(coupon.amount_in_cents ?? 0) };
    return {
      valid: true,
      name: coupon.name,
      ...off,
      currency: this.env.BILLING_CURRENCY,
      recurring: coupon.recurring,
      durationPeriods: coupon.duration_period_count,
      endsAt: coupon.end_date === null ? null : new Date(coupon.end_date).toISOString(),
    };
  }
}

/** The provider's `"20.0"` as `"20"`, `"12.50"` as `"12.5"`. */
const plainDecimal = (value: string) =>
  value
    .trim()
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
