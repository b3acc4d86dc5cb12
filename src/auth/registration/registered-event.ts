import type { DomainEvent } from '../../events';
import type { User } from '../users/user.entity';
import { toUserView, type UserView } from '../users/user.view';

/**
 * `user.registered`: an account's event (no organization), recorded in the registration's
 * transaction; the referral program links the new user to the referrer of `referralCode`.
 */
export const registeredEvent = (user: User, via: 'password' | 'idp'): DomainEvent => ({
  type: 'user.registered',
  organizationId: null,
  actorUserId: user.id,
  object: { ...toUserView(user), referralCode: user.referralCode ?? null, via },
  description: `account ${user.email} registered`,
});

/** What `user.registered` carries: the user's view, the code it signed up with and how. */
export type RegisteredObject = UserView & { referralCode: string | null; via: 'password' | 'idp' };

declare module '../../events' {
  interface EventObjects {
    'user.registered': RegisteredObject;
  }
}
