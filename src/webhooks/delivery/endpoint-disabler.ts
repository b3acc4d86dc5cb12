import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { Tx } from '../../events';
import { MailService } from '../../mail';
import { OrganizationsDirectory } from '../../organizations';
import { DisabledReason, WebhookEndpoint } from '../webhook-endpoint.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

const WHY: Record<DisabledReason, string> = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery attempt to it has failed for 3 days',
};

/**
 * Ends the pending deliveries of an endpoint that stopped receiving (disabled, or deactivated by
 * its organization): an inactive endpoint is sent nothing, and re-enabling it starts afresh.
 */
export async function endPendingDeliveries(manager: EntityManager, endpointId: string) {
  await manager.update(
    WebhookDelivery,
    { endpointId, status: 'pending' },
    { status: 'failed', nextAttemptAt: null },
  );
}

/**
 * Disables an endpoint that answered 410 or has failed for 3 days, and tells its organization's
 * admins: a `webhook.disabled` event (an activity entry for those with canEditOrganization; not
 * delivered) and an e-mail to each.
 */
@Injectable()
export class EndpointDisabler {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly mail: MailService,
    private readonly directory: OrganizationsDirectory,
  ) {}

  /** In the caller's transaction; a no-op for an endpoint already inactive. */
  async disable(tx: Tx, endpointId: string, reason: DisabledReason, at: Date): Promise<boolean> {
    const m = tx.manager;
    const [rows] = (await m.query(
      `UPDATE webhook_endpoint
       SET active = false, disabled_at = $2, disabled_reason = $3, failing_since = NULL
       WHERE id = $1 AND active RETURNING id`,
      [endpointId, at, reason],
    )) as [{ id: string }[], number];
    if (!rows.length) return false;
    await endPendingDeliveries(m, endpointId);
    const endpoint = await m.findOneByOrFail(WebhookEndpoint, { id: endpointId });
    await tx.record({
      type: 'webhook.disabled',
      organizationId: endpoint.organizationId,
      object: {
        id: endpoint.id,
        url: endpoint.url,
        events: endpoint.events,
        description: endpoint.description,
        active: false,
        disabledAt: at.toISOString(),
        disabledReason: reason,
        created: endpoint.created.toISOString(),
      },
      description: `Webhook endpoint ${endpoint.url} disabled: ${WHY[reason]}`,
    });
    return true;
  }

  /** After the disabling committed: one e-mail to each admin; a failed mail is only logged. */
  async notify(endpointId: string, reason: DisabledReason): Promise<void> {
    try {
      const endpoint = await this.endpoints.findOneBy({ id: endpointId });
      if (!endpoint) return;
      const organization = await this.directory.organization(endpoint.organizationId);
      const admins = await this.directory.membersPermitted(
        endpoint.organizationId,
        'canEditOrganization',
      );
      for (const admin of admins) {
        if (!admin.email) continue;
        await this.mail.send({
          to: admin.email,
          subject: `Webhook endpoint disabled for ${organization?.name ?? 'your organization'}`,
          text:
            `The webhook endpoint ${endpoint.url} (${endpoint.id}) was disabled because ` +
            `${WHY[reason]}. No events are sent to it until it is enabled again ` +
            `(PATCH the endpoint with {"active": true}).`,
        });
      }
    } catch (err) {
      this.logger.warn(
        `Notice of disabled endpoint ${endpointId} failed: ${(err as Error).message}`,
      );
    }
  }
}
