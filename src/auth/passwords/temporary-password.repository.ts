import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../common';
import { AggregateRepository, InTransaction } from '../../database';
import { TemporaryPassword } from './temporary-password.entity';

@Injectable()
export class TemporaryPasswordRepository extends AggregateRepository<TemporaryPassword> {
  constructor(
    @InjectRepository(TemporaryPassword) passwords: Repository<TemporaryPassword>,
    private readonly clock: Clock,
  ) {
    super(passwords);
  }

  hasActive(userId: string, tx: InTransaction): Promise<boolean> {
    return this.repo(tx).existsBy({
      userId,
      usedAt: IsNull(),
      expiresAt: MoreThan(this.clock.now()),
    });
  }

  active(userId: string): Promise<TemporaryPassword[]> {
    return this.repository.findBy({
      userId,
      usedAt: IsNull(),
      expiresAt: MoreThan(this.clock.now()),
    });
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
    const result = await this.repo(tx).update(
      { id, usedAt: IsNull() },
      { usedAt: this.clock.now() },
    );
    return Boolean(result.affected);
  }

  async voidPending(userId: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).update({ userId, usedAt: IsNull() }, { usedAt: this.clock.now() });
  }
}
