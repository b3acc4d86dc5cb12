import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { Clock } from '../../common';
import { AggregateRepository, InTransaction } from '../../database';
import { Invitation } from './invitation.entity';

export interface PendingInvitationRow {
  id: string;
  organization_id: string;
  organization_name: string;
  role_id: string;
  role_name: string;
  message: string | null;
  invited_by: string | null;
  expires_at: Date;
  created: Date;
}

@Injectable()
export class InvitationRepository extends AggregateRepository<Invitation> {
  constructor(
    @InjectRepository(Invitation) invitations: Repository<Invitation>,
    private readonly clock: Clock,
  ) {
    super(invitations);
  }

  async insert(fields: Partial<Invitation>, tx: InTransaction): Promise<void> {
    await this.repo(tx).insert(fields);
  }

  /** Any invitation of the member still open ends now (a new one replaces it, or it is void). */
  async expireOpen(memberId: string, tx: InTransaction): Promise<void> {
    await this.repo(tx).update(
      { memberId, acceptedAt: IsNull(), declinedAt: IsNull() },
      { expiresAt: this.clock.now() },
    );
  }

  lockByDigest(tokenHash: string, tx: InTransaction): Promise<Invitation | null> {
    return this.repo(tx).findOne({ where: { tokenHash }, lock: { mode: 'pessimistic_write' } });
  }

  /** Open invitations to an address, of organizations that still exist, newest first. */
  pendingFor(email: string): Promise<PendingInvitationRow[]> {
    return this.repository.query(
      `SELECT i.id, i.organization_id, o.name AS organization_name, i.role_id, r.name AS role_name,
              i.message, i.invited_by, i.expires_at, i.created
       FROM invitation i
       JOIN organization o ON o.id = i.organization_id AND o.deleted_at IS NULL
       JOIN member m ON m.id = i.member_id AND m.status <> 'removed'
       JOIN role r ON r.id = i.role_id
       WHERE i.email = $1 AND i.accepted_at IS NULL AND i.declined_at IS NULL
         AND i.expires_at > $2
       ORDER BY i.created DESC`,
      [email, this.clock.now()],
    );
  }
}
