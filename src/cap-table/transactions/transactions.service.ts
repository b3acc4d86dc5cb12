import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PageQuery } from '../../common';
import { EquityTransaction } from '../ledger/equity-transaction.entity';
import { definitionOf } from '../ledger/transactions';
import { TransactionView } from './transaction.view';

/** `?limit` and `?offset` of the log. */
export class ListTransactionsQuery extends PageQuery {}

/** Reading the log (its rows are written only by the ledger). */
@Injectable()
export class TransactionsService {
  constructor(
    @InjectRepository(EquityTransaction) private readonly log: Repository<EquityTransaction>,
  ) {}

  async list(organizationId: string, query: ListTransactionsQuery): Promise<TransactionView[]> {
    const rows = await this.log.find({
      where: { organizationId },
      order: { sequence: 'ASC' },
      take: query.limit ?? 100,
      skip: query.offset ?? 0,
    });
    return rows.map((r) => ({
      id: r.id,
      sequence: Number(r.sequence),
      type: r.type,
      effectiveDate: r.effectiveDate,
      recordedAt: r.recordedAt.toISOString(),
      actor: r.actorUserId,
      // As a replay reads it (an entry logged before a field existed, upgraded): the document
      // gives each type's payload its definition's schema.
      payload: (definitionOf(r.type).upgrade?.(r.payload as never) ?? r.payload) as Record<
        string,
        unknown
      >,
    }));
  }
}
