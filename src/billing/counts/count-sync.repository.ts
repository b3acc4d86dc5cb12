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

  /**
   * Takes the organization's push lease for `ms` (one statement, no transaction held): answers
   * where its counts stand, null when it has none to push, `busy` while another push holds it.
   */
  async lease(
    organizationId: string,
    lease: string,
    ms: number,
  ): Promise<CountSync | null | 'busy'> {
    const [rows] = (await this.rows.query(
      `UPDATE billing_count_sync
          SET push_lease = $2, push_lease_until = now() + make_interval(secs => $3::float8 / 1000)
        WHERE organization_id = $1 AND (push_lease_until IS NULL OR push_lease_until < now())
        RETURNING requested_seq, pushed_seq, pushed_members, pushed_shareholders`,
      [organizationId, lease, ms],
    )) as [
      {
        requested_seq: number;
        pushed_seq: number;
        pushed_members: number | null;
        pushed_shareholders: number | null;
      }[],
      number,
    ];
    const [row] = rows;
    if (row) {
      return this.rows.create({
        organizationId,
        requestedSeq: row.requested_seq,
        pushedSeq: row.pushed_seq,
        pushedMembers: row.pushed_members,
        pushedShareholders: row.pushed_shareholders,
      });
    }
    return (await this.rows.existsBy({ organizationId })) ? 'busy' : null;
  }

  /**
   * Changes up to `seq` are at the provider (never moves back) and the lease ends; false when the
   * lease was no longer this push's (it outlived it), and nothing is stored.
   */
  async pushed(
    organizationId: string,
    lease: string,
    seq: number,
    counts?: SeatCounts,
  ): Promise<boolean> {
    const [, affected] = (await this.rows.query(
      `UPDATE billing_count_sync SET pushed_seq = GREATEST(pushed_seq, $3),
         pushed_members = COALESCE($4, pushed_members),
         pushed_shareholders = COALESCE($5, pushed_shareholders),
         push_lease = NULL, push_lease_until = NULL, updated = now()
       WHERE organization_id = $1 AND push_lease = $2`,
      [organizationId, lease, seq, counts?.members ?? null, counts?.shareholders ?? null],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Ends the lease without a push (the push failed: its retry takes another). */
  async release(organizationId: string, lease: string): Promise<void> {
    await this.rows.query(
      `UPDATE billing_count_sync SET push_lease = NULL, push_lease_until = NULL
        WHERE organization_id = $1 AND push_lease = $2`,
      [organizationId, lease],
    );
  }

  /**
   * A push that outlived its lease may have reached the provider after a newer one: the counts
   * the provider holds are unknown, so one more push of the counts of now is asked for.
   */
  async pushAgain(organizationId: string): Promise<void> {
    await this.rows.query(
      `UPDATE billing_count_sync SET requested_seq = requested_seq + 1, pushed_members = NULL,
         pushed_shareholders = NULL, updated = now()
       WHERE organization_id = $1`,
      [organizationId],
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
