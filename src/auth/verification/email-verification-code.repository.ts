import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AggregateRepository, InTransaction } from '../../database';
import { EmailVerificationCode } from './email-verification-code.entity';

@Injectable()
export class EmailVerificationCodeRepository extends AggregateRepository<EmailVerificationCode> {
  constructor(@InjectRepository(EmailVerificationCode) codes: Repository<EmailVerificationCode>) {
    super(codes);
  }

  /** The user's one live code: a new one replaces any earlier one. */
  async replace(
    row: { userId: string; codeDigest: string; expiresAt: Date },
    tx: InTransaction,
  ): Promise<void> {
    await this.repo(tx).delete({ userId: row.userId });
    await this.repo(tx).insert(row);
  }

  latest(userId: string, tx: InTransaction): Promise<EmailVerificationCode | null> {
    return this.repo(tx).findOne({ where: { userId }, order: { created: 'DESC' } });
  }

  async countFailure(id: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).increment({ id }, 'failedAttempts', 1);
  }

  async delete(where: { id: string } | { userId: string }, tx: InTransaction): Promise<void> {
    await this.repo(tx).delete(where);
  }
}
