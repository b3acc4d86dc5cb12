import type { AccessContext } from '../../common';
import type { DomainEvent, EventType } from '../../events';
import type { DataRoomEntryView } from './data-room.view';

/**
 * The event of a change to a document or folder, whichever store holds it (the data room, the
 * productivity suite): the entry with its organization, by the caller.
 */
export function entryEvent(
  access: AccessContext,
  type: EventType,
  view: DataRoomEntryView,
  description: string,
): DomainEvent {
  return {
    type,
    organizationId: access.organizationId,
    actorUserId: access.userId,
    object: { ...view, organization: access.organizationId },
    description,
  };
}
