import { Injectable } from '@nestjs/common';
import { normalizeEmail } from '../../common';
import { UserRepository } from '../users/user.repository';
import { UserView } from '../users/user.view';
import { RegistrationService } from './registration.service';

/**
 * Accounts made by an operator rather than by their owner (the development seed): registered
 * through the same rules as `POST /v1/user`, with the address marked verified.
 */
@Injectable()
export class AccountProvisioning {
  constructor(
    private readonly registration: RegistrationService,
    private readonly users: UserRepository,
  ) {}

  async createVerified(account: {
    email: string;
    password: string;
    name: string;
  }): Promise<UserView> {
    const user = await this.registration.register({ ...account, ip: 'provisioned' });
    await this.users.update(user.id, { emailVerified: true });
    return { ...user, emailVerified: true };
  }

  exists(email: string): Promise<boolean> {
    return this.users.exists({ email: normalizeEmail(email) });
  }
}
