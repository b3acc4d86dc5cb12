import { AccessContext } from '../common';
import { DomainEvent } from '../events';

/** A domain event of a change the caller made in their organization (spec section 6). */
export const changeEvent = (
  type: string,
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
});
