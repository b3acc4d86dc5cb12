import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { AccessContext, Clock, DomainError } from '../common';
import { PUBLIC_EVENT_TYPES } from '../events';
import { firstUnreadableType } from '../organizations';
import { endPendingDeliveries } from './delivery/endpoint-disabler';
import type { RotatedSecretView } from './delivery/webhook-actions.view';
import { WebhookSender } from './delivery/webhook-sender';
import { ALL_EVENTS, CreateWebhookDto, UpdateWebhookDto } from './webhook-endpoint.dto';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { newSecret, WebhookSecrets } from './webhook-secrets';
import { CreatedWebhookView, LastDelivery, WebhookView } from './webhook-endpoint.view';

/** Endpoints one organization may register: each event is delivered to every one of them. */
export const MAX_ENDPOINTS = 16;

const newId = () => `wh_${randomBytes(16).toString('hex')}`;

function checkEvents(events: string[] | undefined) {
  if (events && events.length > 1 && events.includes(ALL_EVENTS)) {
    throw DomainError.badRequest(`events: "${ALL_EVENTS}" stands alone`);
  }
}

/** The catalogue types a subscription covers: `*` is all of them, in catalogue order. */
const coveredTypes = (events: readonly string[]): readonly string[] =>
  events.includes(ALL_EVENTS) ? PUBLIC_EVENT_TYPES : events;

/**
 * An endpoint receives every event of its types, so whoever decides what it receives (its
 * `events`) or where it goes (its `url`) must read each of those types in full (the role's
 * permission, not the self scope of "...OrSelf"): else 403 naming the first type missing.
 */
function checkAudience(access: AccessContext, events: readonly string[], change: 'events' | 'url') {
  const missing = firstUnreadableType(access, coveredTypes(events));
  if (!missing) return;
  throw DomainError.forbidden(
    change === 'events'
      ? `events: subscribing to ${missing.type} needs ${missing.permission}`
      : `url: changing where ${missing.type} is delivered needs ${missing.permission}`,
  );
}

/**
 * Who may not edit the organization sees a URL reduced to its origin (scheme, host, port): URLs
 * often carry credentials in their user info, path or query.
 */
function urlFor(access: AccessContext, url: string): string {
  if (access.permissions.has('canEditOrganization')) return url;
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** An organization's webhook endpoints: registration, list, changes, removal. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
  ) {}

  async create(access: AccessContext, dto: CreateWebhookDto): Promise<CreatedWebhookView> {
    const organizationId = access.organizationId!;
    checkEvents(dto.events);
    checkAudience(access, dto.events ?? [ALL_EVENTS], 'events');
    await this.checkUrl(dto.url);
    const id = newId();
    const secret = newSecret();
    const endpoint = await this.endpoints.manager.transaction(async (m) => {
      // Counted and added under the organization's lock: two registrations cannot both be last.
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `webhooks:${organizationId}`,
      ]);
      const registered = await m.getRepository(WebhookEndpoint).countBy({ organizationId });
      if (registered >= MAX_ENDPOINTS) {
        throw DomainError.conflict(
          `an organization has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`,
        );
      }
      return m.getRepository(WebhookEndpoint).save(
        this.endpoints.create({
          id,
          organizationId,
          url: dto.url,
          events: dto.events ?? [ALL_EVENTS],
          description: dto.description ?? null,
          active: dto.active ?? true,
          secret: this.secrets.seal(id, secret),
          disabledAt: null,
          disabledReason: null,
        }),
      );
    });
    return { ...fieldsOf(endpoint), secret };
  }

  async list(access: AccessContext): Promise<WebhookView[]> {
    const endpoints = await this.endpoints.find({
      where: { organizationId: access.organizationId! },
      order: { created: 'ASC', id: 'ASC' },
    });
    const last = await this.lastDeliveries(endpoints.map((e) => e.id));
    return endpoints.map((e) => ({
      ...toView(e, last.get(e.id) ?? null),
      url: urlFor(access, e.url),
    }));
  }

  /** An inactive endpoint is sent nothing: turning it off ends its pending deliveries. */
  async update(access: AccessContext, id: string, dto: UpdateWebhookDto): Promise<WebhookView> {
    const organizationId = access.organizationId!;
    checkEvents(dto.events);
    if (dto.events !== undefined) checkAudience(access, dto.events, 'events');
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    const saved = await this.endpoints.manager.transaction(async (m) => {
      const endpoint = await m.findOne(WebhookEndpoint, {
        where: { id, organizationId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!endpoint) throw DomainError.notFound();
      // Sending the same types elsewhere is receiving them: as a subscription of one's own.
      if (dto.url !== undefined && dto.events === undefined) {
        checkAudience(access, endpoint.events, 'url');
      }
      if (dto.url !== undefined) endpoint.url = dto.url;
      if (dto.events !== undefined) endpoint.events = dto.events;
      if (dto.description !== undefined) endpoint.description = dto.description;
      if (dto.active === false && endpoint.active) await endPendingDeliveries(m, endpoint.id);
      if (dto.active !== undefined) endpoint.active = dto.active;
      if (dto.active) {
        endpoint.disabledAt = null;
        endpoint.disabledReason = null;
        endpoint.failingSince = null;
      }
      return m.save(endpoint);
    });
    const last = await this.lastDeliveries([saved.id]);
    return toView(saved, last.get(saved.id) ?? null);
  }

  /** Removes the endpoint with its deliveries: nothing pending is sent afterwards. */
  async remove(organizationId: string, id: string): Promise<void> {
    await this.endpoints.delete({ id: (await this.find(organizationId, id)).id });
  }

  /** A new secret; the one it replaces keeps signing for 24 hours. */
  async rotateSecret(organizationId: string, id: string): Promise<RotatedSecretView> {
    return this.endpoints.manager.transaction(async (m) => {
      const endpoint = await m.findOne(WebhookEndpoint, {
        where: { id, organizationId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!endpoint) throw DomainError.notFound();
      const { secret, retiredUntil } = this.secrets.rotate(endpoint, this.clock.now());
      await m.update(WebhookEndpoint, endpoint.id, {
        secret: endpoint.secret,
        retiredSecrets: endpoint.retiredSecrets,
      });
      return { secret, previousSecretExpiresAt: retiredUntil };
    });
  }

  /** The endpoint; another organization's is as unknown as a missing one (404). */
  async find(organizationId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOneBy({ id, organizationId });
    if (!endpoint) throw DomainError.notFound();
    return endpoint;
  }

  /** Each endpoint's most recent attempted delivery. */
  private async lastDeliveries(endpointIds: string[]): Promise<Map<string, LastDelivery>> {
    if (!endpointIds.length) return new Map();
    const rows = (await this.endpoints.query(
      `SELECT DISTINCT ON (endpoint_id) endpoint_id, last_attempt_at, status, last_http_status,
              event_type
       FROM webhook_delivery
       WHERE endpoint_id = ANY($1) AND last_attempt_at IS NOT NULL
       ORDER BY endpoint_id, last_attempt_at DESC, sequence DESC`,
      [endpointIds],
    )) as {
      endpoint_id: string;
      last_attempt_at: Date;
      status: LastDelivery['status'];
      last_http_status: number;
      event_type: string;
    }[];
    return new Map(
      rows.map((r) => [
        r.endpoint_id,
        {
          timestamp: r.last_attempt_at.toISOString(),
          status: r.status,
          httpStatus: r.last_http_status,
          eventType: r.event_type,
        },
      ]),
    );
  }

  private async checkUrl(url: string) {
    const refused = await this.sender.refused(url);
    if (refused) throw DomainError.keyed('webhookUrlNotAllowed', refused);
  }
}

function fieldsOf(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    active: endpoint.active,
    created: endpoint.created.toISOString(),
  };
}

function toView(endpoint: WebhookEndpoint, lastDelivery: LastDelivery | null): WebhookView {
  return {
    ...fieldsOf(endpoint),
    lastDelivery,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
  };
}
