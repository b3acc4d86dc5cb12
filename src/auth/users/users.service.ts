import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { HttpError } from '../../common/errors/app-error';
import { User } from './user.entity';
import { normalizeEmail, toUserView, UserView } from './user.view';

/** Reads of accounts shared by the auth services. */
@Injectable()
export class UsersService {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  findById(id: string): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /** The user object of the session's user; 401 when the account no longer exists. */
  async view(userId: string): Promise<UserView> {
    const user = await this.findById(userId);
    if (!user) throw HttpError.unauthorized();
    return toUserView(user);
  }
}
