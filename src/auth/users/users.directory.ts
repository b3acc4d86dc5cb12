import { Injectable } from '@nestjs/common';
import { DomainError, normalizeEmail } from '../../common';
import { UserRepository } from './user.repository';
import { toUserView, UserView } from './user.view';

/** What other modules may know of an account. */
export interface UserSummary {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  /** The user's personal legal entity. */
  entityId: string;
  /** An account of the service's own (a gateway hook's actor), not a person's. */
  system: boolean;
}

/**
 * The Auth module's public read of accounts: other modules look users up here, never in the
 * user table.
 */
@Injectable()
export class UsersDirectory {
  constructor(private readonly users: UserRepository) {}

  async findById(id: string): Promise<UserSummary | null> {
    const user = await this.users.find({ id });
    return user && summary(user);
  }

  /** By address, in any spelling (it is normalised here). */
  async findByEmail(email: string): Promise<UserSummary | null> {
    const user = await this.users.find({ email: normalizeEmail(email) });
    return user && summary(user);
  }

  /** How many people registered, and the user's place among them in order of registration. */
  waitlist(userId?: string): Promise<{ total: number; position: number | null }> {
    return this.users.waitlist(userId);
  }

  /** The user object of the session's user; 401 when the account no longer exists. */
  async view(userId: string): Promise<UserView> {
    const user = await this.users.find({ id: userId });
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    return toUserView(user);
  }
}

const summary = (u: {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  entityId: string;
  system: boolean;
}): UserSummary => ({
  id: u.id,
  email: u.email,
  name: u.name,
  emailVerified: u.emailVerified,
  entityId: u.entityId,
  system: u.system,
});
