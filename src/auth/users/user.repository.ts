import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { User } from './user.entity';

type UserKey = { id: string } | { email: string } | { idpSubject: string };

/** Accounts. E-mail addresses arrive here already normalised (`normalizeEmail`). */
@Injectable()
export class UserRepository extends AggregateRepository<User> {
  constructor(@InjectRepository(User) users: Repository<User>) {
    super(users);
  }

  find(key: UserKey, tx?: InTransaction): Promise<User | null> {
    return this.repo(tx).findOneBy(key);
  }

  /** The row, locked until the transaction ends (decisions about the account serialise on it). */
  lock(key: UserKey, tx: InTransaction): Promise<User | null> {
    return this.repo(tx).findOne({ where: key, lock: { mode: 'pessimistic_write' } });
  }

  exists(key: UserKey, tx?: InTransaction): Promise<boolean> {
    return this.repo(tx).existsBy(key);
  }

  /** One registration per IP at a time, so a count of its registrations cannot be raced past. */
  async lockRegistrationsFrom(ip: string, tx: InTransaction): Promise<void> {
    await tx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`registration:${ip}`]);
  }

  countRegisteredFrom(ip: string, tx: InTransaction): Promise<number> {
    return this.repo(tx).countBy({ registrationIp: ip });
  }

  async update(id: string, fields: Partial<User>, tx?: InTransaction): Promise<void> {
    await this.repo(tx).update({ id }, fields);
  }

  /** Records TOTP `step` as used unless it (or a later one) already was: atomic against races. */
  async spendTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.repository
      .createQueryBuilder()
      .update()
      .set({ twoFactorLastStep: step })
      .where('id = :userId', { userId })
      .andWhere('(two_factor_last_step IS NULL OR two_factor_last_step < :step)', { step })
      .execute();
    return result.affected === 1;
  }

  /**
   * The waitlist: people's accounts (no system account) in order of registration; the user's
   * 1-based place in it when given (null when the user is not on it).
   */
  async waitlist(userId?: string): Promise<{ total: number; position: number | null }> {
    const [row] = (await this.repository.query(
      `SELECT (SELECT count(*) FROM user_account WHERE NOT system)::int AS total,
              (SELECT count(*) FROM user_account o, user_account u
                WHERE u.id = $1 AND NOT u.system AND NOT o.system
                  AND (o.created, o.id) <= (u.created, u.id))::int AS position`,
      [userId ?? null],
    )) as { total: number; position: number }[];
    return { total: row.total, position: userId && row.position > 0 ? row.position : null };
  }
}
