import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { DomainError, SecretBox } from '../common';
import { Env } from '../config';
import { WebhookHostResolver } from './host-resolver';
import { refusedWebhookUrl } from './url-policy';
import { ALL_EVENTS, CreateWebhookDto, UpdateWebhookDto } from './webhook-endpoint.dto';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { CreatedWebhookView, WebhookView } from './webhook-endpoint.view';

/** Endpoints one organization may register: each event is delivered to every one of them. */
export const MAX_ENDPOINTS = 16;

const newId = () => `wh_${randomBytes(16).toString('hex')}`;
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The secret is sealed bound to its endpoint, so a copied column opens for no other. */
const secretAad = (id: string) => `webhook:${id}`;

function checkEvents(events: string[] | undefined) {
  if (events && events.length > 1 && events.includes(ALL_EVENTS)) {
    throw DomainError.badRequest(`events: "${ALL_EVENTS}" stands alone`);
  }
}

/** An organization's webhook endpoints: registration, list, changes, removal. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly box: SecretBox,
    private readonly env: Env,
    private readonly resolver: WebhookHostResolver,
  ) {}

  async create(organizationId: string, dto: CreateWebhookDto): Promise<CreatedWebhookView> {
    checkEvents(dto.events);
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
          secret: this.box.encrypt(secret, secretAad(id)),
          disabledAt: null,
          disabledReason: null,
        }),
      );
    });
    return { ...fieldsOf(endpoint), secret };
  }

  async list(organizationId: string): Promise<WebhookView[]> {
    const endpoints = await this.endpoints.find({
      where: { organizationId },
      order: { created: 'ASC', id: 'ASC' },
    });
    return endpoints.map(toView);
  }

  async update(organizationId: string, id: string, dto: UpdateWebhookDto): Promise<WebhookView> {
    const endpoint = await this.find(organizationId, id);
    checkEvents(dto.events);
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    if (dto.url !== undefined) endpoint.url = dto.url;
    if (dto.events !== undefined) endpoint.events = dto.events;
    if (dto.description !== undefined) endpoint.description = dto.description;
    if (dto.active !== undefined) endpoint.active = dto.active;
    if (dto.active) {
      endpoint.disabledAt = null;
      endpoint.disabledReason = null;
    }
    return toView(await this.endpoints.save(endpoint));
  }

  async remove(organizationId: string, id: string): Promise<void> {
    await this.endpoints.delete({ id: (await this.find(organizationId, id)).id });
  }

  /** Another organization's endpoint is as unknown as a missing one. */
  private async find(organizationId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOneBy({ id, organizationId });
    if (!endpoint) throw DomainError.notFound();
    return endpoint;
  }

  private async checkUrl(url: string) {
    const refused = await refusedWebhookUrl(
      url,
      {
        production: this.env.NODE_ENV === 'production',
        allowPrivate: this.env.WEBHOOK_ALLOW_PRIVATE_URLS === true,
      },
      (host) => this.resolver.resolve(host),
    );
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

function toView(endpoint: WebhookEndpoint): WebhookView {
  return {
    ...fieldsOf(endpoint),
    // No delivery exists before the delivery worker.
    lastDelivery: null,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
  };
}
