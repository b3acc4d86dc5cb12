import { AccessContext } from '../common';
import { DomainEvent, EventType } from '../events';

/**
 * A domain event of a change the caller made in their organization (spec section 6). When the
 * object names its holder (`member`, as shareholding and holding views do), the holder is the
 * event's subject: the activity log shows it to them as their routes show them the record.
 */
export const changeEvent = (
  type: EventType,
  access: AccessContext,
  object: object,
  description: string,
  previous?: Record<string, unknown>,
): DomainEvent => ({
  type,
  organizationId: access.organizationId,
  actorUserId: access.userId,
  object,
  previous,
  description,
  subjects: holderOf(object),
});

const holderOf = (object: object): string[] => {
  const member = (object as { member?: unknown }).member;
  return typeof member === 'string' ? [member] : [];
};
