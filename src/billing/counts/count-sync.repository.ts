import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { SeatCounts } from '../provider/billing-provider';
import { CountSync } from '../store/count-sync.entity';

/** Where each organization's seat counts stand with the provider. */
@Injectable()
export class CountSyncRepository {
  constructor(@InjectRepository(CountSync) private readonly rows: Repository<CountSync>) {}

  /** One more change to push (in the transaction that marks the event handled). */
  async request(manager: EntityManager, organizationId: string): Promise<void> {
    await manager.query(
      `INSERT INTO billing_count_sync (organization_id, requested_seq) VALUES ($1, 1)
       ON CONFLICT (organization_id)
       DO UPDATE SET requested_seq = billing_count_sync.requested_seq + 1, updated = now()`,
      [organizationId],
    );
  }

  find(organizationId: string): Promise<CountSync | null> {
    return this.rows.findOneBy({ organizationId });
  }

  /** Changes up to `seq` are at the provider (never moves back: a slower push may end last). */
  async pushed(organizationId: string, seq: number, counts?: SeatCounts): Promise<void> {
    await this.rows.query(
      `UPDATE billing_count_sync SET pushed_seq = GREATEST(pushed_seq, $2),
         pushed_members = COALESCE($3, pushed_members),
         pushed_shareholders = COALESCE($4, pushed_shareholders), updated = now()
       WHERE organization_id = $1`,
      [organizationId, seq, counts?.members ?? null, counts?.shareholders ?? null],
    );
  }

  /** The counts a signup carried to the provider. */
  async carried(manager: EntityManager, organizationId: string, counts: SeatCounts): Promise<void> {
    await manager.query(
      `INSERT INTO billing_count_sync (organization_id, pushed_members, pushed_shareholders)
       VALUES ($1, $2, $3)
       ON CONFLICT (organization_id) DO UPDATE
         SET pushed_members = $2, pushed_shareholders = $3, updated = now()`,
      [organizationId, counts.members, counts.shareholders],
    );
  }

  /** Organizations whose latest changes are not at the provider yet. */
  async behind(limit: number): Promise<string[]> {
    const rows: { organization_id: string }[] = await this.rows.query(
      `SELECT organization_id FROM billing_count_sync WHERE requested_seq > pushed_seq
       ORDER BY updated LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.organization_id);
  }
}
