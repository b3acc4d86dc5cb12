import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DatabaseConfig } from '../config';
import type { IdempotencyState } from './idempotency-key.entity';

/** How long an answer is kept for retries (issue 20: 24 hours, as payment APIs do). */
export const RETENTION = '24 hours';

/** One claim of a key: a request's, or a retry's that took the key over after its lease. */
export interface Claim {
  userId: string;
  key: string;
  /** Drawn for each request: the row's `claim_id` while the request holds the key. */
  claimId: string;
}

export interface KeyedRequest extends Claim {
  method: string;
  path: string;
  fingerprint: string;
}

/** The answer kept for a key whose request wrote and then died before keeping its own. */
export interface LostAnswer {
  status: number;
  body: string;
}

/** What an earlier request with the same key left. */
export interface EarlierRequest {
  fingerprint: string;
  state: IdempotencyState;
  status: number | null;
  responseBody: string | null;
}

/**
 * The `idempotency_key` rows. Every statement commits on its own, outside the request's
 * transaction: the claim must be seen by a racing retry at once, and the answer stored only once
 * the request's own transaction has committed.
 */
@Injectable()
export class IdempotencyStore {
  /**
   * How long a running request holds its key unless it renews the claim (it does while it runs):
   * a key whose request died with its process is free again for a retry after this
   * (IDEMPOTENCY_LEASE_MS).
   */
  readonly leaseMs: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    config: DatabaseConfig,
  ) {
    this.leaseMs = config.IDEMPOTENCY_LEASE_MS;
  }

  /**
   * Claims the key for this request (as `running`, for the lease), or says what holds it. A
   * row past its expiry (an answer past RETENTION, a claim past its lease) counts as absent and is
   * taken over; the primary key makes one of two racing claims win.
   */
  async claim(request: KeyedRequest, lost: LostAnswer): Promise<EarlierRequest | 'claimed'> {
    const { userId, key, method, path, fingerprint, claimId } = request;
    // A lapsed claim that wrote is answered, never run again (see appliedAt).
    await this.settleApplied(request, lost, 'lapsed');
    // A row released between the failed claim and the read is claimed again on the next turn.
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed: unknown[] = await this.db.query(
        `INSERT INTO idempotency_key
           (user_id, key, method, path, fingerprint, state, claim_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'running', $6, now() + $7 * interval '1 millisecond')
         ON CONFLICT (user_id, key) DO UPDATE SET
           method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint,
           state = 'running', status = NULL, response_body = NULL, created = now(),
           claim_id = EXCLUDED.claim_id, expires_at = EXCLUDED.expires_at
         WHERE idempotency_key.expires_at <= now()
           AND NOT (idempotency_key.state = 'running' AND idempotency_key.applied_at IS NOT NULL)
         RETURNING 1`,
        [userId, key, method, path, fingerprint, claimId, this.leaseMs],
      );
      if (claimed.length) return 'claimed';
      const [earlier] = (await this.db.query(
        `SELECT fingerprint, state, status, response_body AS "responseBody"
         FROM idempotency_key WHERE user_id = $1 AND key = $2 AND expires_at > now()`,
        [userId, key],
      )) as EarlierRequest[];
      if (earlier) return earlier;
    }
    // Claimed and released three times over by others in the meantime: as good as running.
    return { fingerprint, state: 'running', status: null, responseBody: null };
  }

  /** Extends the claim of a request still running by another lease from now. */
  async renew({ userId, key, claimId }: Claim): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_key SET expires_at = now() + $4 * interval '1 millisecond'
       WHERE user_id = $1 AND key = $2 AND state = 'running' AND claim_id = $3`,
      [userId, key, claimId, this.leaseMs],
    );
  }

  /**
   * Stores the answer of the claimed request, kept for RETENTION from now, unless its claim was
   * taken over meanwhile (its lease lapsed): the retry's answer is the one kept.
   */
  async complete(
    { userId, key, claimId }: Claim,
    status: number,
    responseBody: string | null,
  ): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_key
       SET state = 'done', status = $4, response_body = $5,
           expires_at = now() + interval '${RETENTION}'
       WHERE user_id = $1 AND key = $2 AND state = 'running' AND claim_id = $3`,
      [userId, key, claimId, status, responseBody],
    );
  }

  /**
   * Gives the key up (the request ended without an answer worth replaying), if still its. A
   * request that wrote before it failed keeps the key, answered as applied: run again, it would
   * write twice.
   */
  async release(claim: Claim, lost: LostAnswer): Promise<void> {
    const { userId, key, claimId } = claim;
    await this.settleApplied(claim, lost, 'own');
    await this.db.query(
      `DELETE FROM idempotency_key
       WHERE user_id = $1 AND key = $2 AND state = 'running' AND claim_id = $3
         AND applied_at IS NULL`,
      [userId, key, claimId],
    );
  }

  /**
   * Marks, in the transaction of the request's write, that the claim wrote (the UnitOfWork runs
   * this before its commit, see withBeforeCommit).
   */
  async markApplied(manager: EntityManager, { userId, key, claimId }: Claim): Promise<void> {
    await manager.query(
      `UPDATE idempotency_key SET applied_at = coalesce(applied_at, now())
       WHERE user_id = $1 AND key = $2 AND state = 'running' AND claim_id = $3`,
      [userId, key, claimId],
    );
  }

  /**
   * Keeps `lost` as the answer of a claim that wrote without keeping its answer: its own (the
   * request failed after writing) or any lapsed one (its server stopped).
   */
  private async settleApplied(
    { userId, key, claimId }: Claim,
    lost: LostAnswer,
    which: 'own' | 'lapsed',
  ): Promise<void> {
    const claim = which === 'own' ? 'claim_id = $5' : 'expires_at <= now()';
    await this.db.query(
      `UPDATE idempotency_key
       SET state = 'done', status = $3, response_body = $4,
           expires_at = now() + interval '${RETENTION}'
       WHERE user_id = $1 AND key = $2 AND state = 'running' AND applied_at IS NOT NULL
         AND ${claim}`,
      [userId, key, lost.status, lost.body, ...(which === 'own' ? [claimId] : [])],
    );
  }
}
