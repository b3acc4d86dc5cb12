import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, AccessContext, DomainError, Permission } from '../common';
import { EventLog } from '../events';
import { eventReaderOf } from '../organizations';
import { ListEventsQuery, MAX_EVENT_LIMIT } from './event.dto';
import { EVENT_SCHEMA, EventListView, EventView } from './event.view';

@ApiTags('events')
@ApiExtraModels(EventView)
@Controller('v1/organization/:organization/event')
export class EventsController {
  constructor(private readonly events: EventLog) {}

  @Get()
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'The organization’s events of the last 30 days that the caller may read, newest first',
    description:
      'The 33 event types of spec section 6, each in the envelope outbound webhooks deliver. ' +
      'Only the events the caller may read, as their activity entries: those whose record the ' +
      'caller’s role may read (the permission of its read route, e.g. `canViewValuation` for ' +
      '`valuation.*`, `canViewCapitalizationOrSelf` for `shareholding.*`, ' +
      '`canEditOrganizationBilling` for `subscription.*` and `payment.*`), and those about the ' +
      'caller’s own member record or holdings. `limit` counts those. Page with `after` (the id ' +
      'of the last event seen; only older events follow), filter with one `type`; `limit` 1 to ' +
      `${MAX_EVENT_LIMIT}, default ${MAX_EVENT_LIMIT}.`,
  })
  @ApiBadRequestResponse({
    description:
      'type not an event type of spec section 6, limit outside 1..100, after not the id of an event the caller may read in this organization',
  })
  @ApiOkResponse({ type: EventListView, description: '`{data: [...]}`, newest first' })
  async list(
    @Param('organization') _organization: string,
    @Access() access: AccessContext,
    @Query() query: ListEventsQuery,
  ): Promise<EventListView> {
    const data = await this.events.list(access.organizationId!, eventReaderOf(access), {
      type: query.type,
      limit: query.limit ?? MAX_EVENT_LIMIT,
      after: query.after,
    });
    return { data };
  }

  @Get(':event')
  @Permission('canViewOrganization')
  @ApiOperation({
    summary: 'One event of the organization',
    description: 'An event the caller may read, by the rule of the list; any other is 404.',
  })
  @ApiBadRequestResponse({ description: 'event not `evt_` + 32 hex characters' })
  @ApiOkResponse({ schema: EVENT_SCHEMA, description: 'The event' })
  @ApiNotFoundResponse({
    description:
      'No such event in this organization, or one the caller may not read (no difference is told)',
  })
  async get(
    @Param('organization') _organization: string,
    @Param('event') id: string,
    @Access() access: AccessContext,
  ): Promise<EventView> {
    const event = await this.events.get(access.organizationId!, eventReaderOf(access), id);
    if (!event) throw DomainError.notFound();
    return event;
  }
}
