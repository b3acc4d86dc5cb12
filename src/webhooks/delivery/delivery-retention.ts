import { Injectable } from '@nestjs/common';
import { DAY, Retention } from '../../scheduler';

/** How long an ended delivery and its attempts (the delivery history) are kept: as events. */
export const DELIVERY_RETENTION_DAYS = 30;

/**
 * Once a day across instances, the deliveries that ended and were made more than 30 days ago go,
 * with their attempts; pending ones stay (their last retry is at most ~26.5 hours away).
 */
@Retention({
  owner: 'webhooks',
  name: 'webhooks:delivery-cleanup',
  table: 'webhook_delivery',
  age: 'created',
  olderThan: DELIVERY_RETENTION_DAYS * DAY,
  where: "status <> 'pending'",
})
@Injectable()
export class DeliveryRetention {}
