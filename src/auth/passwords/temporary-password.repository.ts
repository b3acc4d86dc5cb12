import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { TemporaryPassword } from './temporary-password.entity';

@Injectable()
export class TemporaryPasswordRepository extends AggregateRepository<TemporaryPassword> {
  constructor(@InjectRepository(TemporaryPassword) passwords: Repository<TemporaryPassword>) {
    super(passwords);
  }

  hasActive(userId: string, tx: InTransaction): Promise<boolean> {
    return this.repo(tx).existsBy({ userId, usedAt: IsNull(), expiresAt: MoreThan(new Date()) });
  }

  active(userId: string): Promise<TemporaryPassword[]> {
    return this.repository.findBy({ userId, usedAt: IsNull(), expiresAt: MoreThan(new Date()) });
  }

  find(id: string, userId: string): Promise<TemporaryPassword | null> {
    return this.repository.findOneBy({ id, userId });
  }

  async insert(
    row: { userId: string; passwordHash: string; expiresAt: Date },
    tx: InTransaction,
  ): Promise<void> {
    await this.repo(tx).insert(row);
  }

  /** Marks it used unless it already was; true when this call used it. */
  async markUsed(id: string, tx: InTransaction): Promise<boolean> {
    const result = await this.repo(tx).update({ id, usedAt: IsNull() }, { usedAt: new Date() });
    return Boolean(result.affected);
  }

  async voidPending(userId: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).update({ userId, usedAt: IsNull() }, { usedAt: new Date() });
  }
}
