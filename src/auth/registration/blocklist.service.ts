import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { DomainError, normalizeEmail } from '../../common';
import { Env } from '../../config';
import { InTransaction } from '../../database';
import { BlocklistEntry, BlocklistKind } from './blocklist-entry.entity';

/**
 * Blocked addresses and domains live in the database; BLOCKED_EMAILS and BLOCKED_EMAIL_DOMAINS are
 * added at start-up (existing rows are kept, so restarts are idempotent and entries added by other
 * means survive).
 */
@Injectable()
export class BlocklistService implements OnApplicationBootstrap {
  constructor(
    @InjectRepository(BlocklistEntry) private readonly entries: Repository<BlocklistEntry>,
    private readonly env: Env,
  ) {}

  async onApplicationBootstrap() {
    await this.seed('address', this.env.BLOCKED_EMAILS);
    await this.seed(
      'domain',
      this.env.BLOCKED_EMAIL_DOMAINS.map((d) => d.replace(/^@/, '')),
    );
  }

  private async seed(kind: BlocklistKind, values: string[]) {
    const rows = [...new Set(values.map(normalizeEmail).filter(Boolean))].map((value) => ({
      kind,
      value,
    }));
    if (!rows.length) return;
    await this.entries
      .createQueryBuilder()
      .insert()
      .values(rows)
      .orIgnore() // ON CONFLICT DO NOTHING
      .execute();
  }

  /** Throws `emailBlacklisted` / `domainBlacklisted`; a blocked domain covers its subdomains. */
  async assertAllowed(tx: InTransaction, email: string): Promise<void> {
    const repo = tx.manager.getRepository(BlocklistEntry);
    if (await repo.existsBy({ kind: 'address', value: email })) {
      throw DomainError.keyed('emailBlacklisted');
    }
    const labels = email.slice(email.lastIndexOf('@') + 1).split('.');
    const domains = labels.map((_, i) => labels.slice(i).join('.'));
    if (domains.length && (await repo.existsBy({ kind: 'domain', value: In(domains) }))) {
      throw DomainError.keyed('domainBlacklisted');
    }
  }
}
