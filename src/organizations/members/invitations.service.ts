import { Injectable, Logger } from '@nestjs/common';
import { AccessContext, Clock, DomainError, TokenService } from '../../common';
import { Env } from '../../config';
import { Tx, UnitOfWork, previousAttributes } from '../../events';
import { MailService } from '../../mail';
import { UsersDirectory, UserSummary } from '../../auth';
import { Invitation } from '../invitations/invitation.entity';
import { PendingInvitationView } from '../invitations/invitation.view';
import { InvitationRepository } from '../invitations/invitation.repository';
import { OrganizationRepository } from '../organizations/organization.repository';
import { RoleLookup, roleName } from '../roles/role-lookup';
import { InviteMemberDto } from './member.dto';
import { MemberRepository } from './member.repository';
import { assertMayGrant, memberEvent } from './member-rules';
import { MemberView, toMemberView } from './member.view';

export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/**
 * Invitations: the only way a registered user gains access to an organization. The invitee must
 * prove the invited address (be logged in as its verified owner) and accept; until then the
 * member record links no account.
 */
@Injectable()
export class InvitationsService {
  private readonly logger = new Logger(InvitationsService.name);

  constructor(
    private readonly uow: UnitOfWork,
    private readonly members: MemberRepository,
    private readonly invitations: InvitationRepository,
    private readonly organizations: OrganizationRepository,
    private readonly roles: RoleLookup,
    private readonly users: UsersDirectory,
    private readonly tokens: TokenService,
    private readonly mail: MailService,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  async invite(access: AccessContext, dto: InviteMemberDto): Promise<MemberView> {
    const organizationId = access.organizationId!;
    const { member, token, organizationName } = await this.uow.run(async (tx) => {
      const organization = await this.organizations.lock(organizationId, tx);
      if (!organization) throw DomainError.notFound();
      const role = await this.roles.resolve(tx, organizationId, dto.role);
      assertMayGrant(access, role.id);
      let member = await this.members.findCurrentByEmail(organizationId, dto.email, tx);
      if (member?.userId && member.status === 'active') {
        throw DomainError.conflict(`${dto.email} is already a member`);
      }
      if (member) {
        assertMayGrant(access, member.roleId);
        member.roleId = role.id;
        member = await this.members.save(member, tx);
      } else {
        member = await this.members.add(
          { organizationId, email: dto.email, name: dto.email, roleId: role.id, status: 'invited' },
          tx,
        );
      }
      // A new invitation replaces any earlier one still open for this member.
      await this.invitations.expireOpen(member.id, tx);
      const token = this.tokens.issueToken(INVITATION_LIFETIME_MS);
      await this.invitations.insert(
        {
          organizationId,
          memberId: member.id,
          email: dto.email,
          roleId: role.id,
          message: dto.message ?? null,
          tokenHash: token.digest,
          expiresAt: token.expiresAt,
          invitedBy: access.userId,
        },
        tx,
      );
      await tx.record(
        memberEvent(
          'member.invited',
          access.userId,
          member,
          `member ${dto.email}: invited as ${roleName(role)}`,
        ),
      );
      return { member, token: token.value, organizationName: organization.name };
    });
    // The invitation stands even when the mail fails: the invitee also finds it in the app.
    await this.mail
      .send({
        to: dto.email,
        subject: `You are invited to ${organizationName} on Ledgerline`,
        text:
          `${dto.message ? `${dto.message}\n\n` : ''}You have been invited to join ${organizationName}.\n` +
          `Accept: ${this.env.FRONTEND_URL}/invitation?token=${token}\n` +
          `Invitation token: ${token}\nIt expires in 7 days.`,
      })
      .catch((err: Error) =>
        this.logger.error(`invitation mail to ${dto.email} failed: ${err.message}`),
      );
    return toMemberView(member);
  }

  /** `POST /v1/organization/invitation/accept {token}`: the mailed token, by its addressee. */
  acceptToken(userId: string, token: string): Promise<MemberView> {
    return this.uow.run(async (tx) => {
      const invitation = await this.invitations.lockByDigest(this.tokens.tokenDigest(token), tx);
      if (!invitation || !this.tokens.isLive(invitation.expiresAt) || invitation.declinedAt) {
        throw DomainError.badRequest('invalid or expired invitation token');
      }
      if (invitation.acceptedAt) throw DomainError.conflict('the invitation was already used');
      const user = await this.addressee(userId);
      if (user.email !== invitation.email) {
        throw DomainError.forbidden('the invitation was sent to another address');
      }
      return this.join(tx, invitation, user);
    });
  }

  /** Accepting from the app: the invitation must be addressed to the caller's verified address. */
  acceptById(userId: string, invitationId: string): Promise<MemberView> {
    return this.uow.run(async (tx) => {
      const { invitation, user } = await this.openInvitationOf(tx, userId, invitationId);
      return this.join(tx, invitation, user);
    });
  }

  decline(userId: string, invitationId: string): Promise<void> {
    return this.uow.run(async (tx) => {
      const { invitation } = await this.openInvitationOf(tx, userId, invitationId);
      invitation.declinedAt = this.clock.now();
      await this.invitations.save(invitation, tx);
      const member = await this.members.lockById(invitation.memberId, tx);
      if (member && member.status === 'invited') {
        member.status = 'removed';
        member.removedAt = this.clock.now();
        await this.members.save(member, tx);
        await tx.record(
          memberEvent(
            'member.removed',
            userId,
            member,
            `member ${invitation.email}: declined the invitation`,
          ),
        );
      }
    });
  }

  /** `GET /v1/user/invitations`: open invitations to the caller's verified address. */
  async pendingFor(userId: string): Promise<PendingInvitationView[]> {
    const user = await this.users.findById(userId);
    if (!user?.emailVerified) return [];
    const rows = await this.invitations.pendingFor(user.email);
    return rows.map((r) => ({
      id: r.id,
      organization: { id: r.organization_id, name: r.organization_name },
      role: { id: r.role_id, name: roleName({ id: r.role_id, name: r.role_name }) },
      message: r.message,
      invitedBy: r.invited_by,
      expiresAt: r.expires_at.toISOString(),
      created: r.created.toISOString(),
    }));
  }

  /** 404 unless the invitation is open and addressed to the caller (ids cannot be probed). */
  private async openInvitationOf(tx: Tx, userId: string, invitationId: string) {
    const invitation = await this.invitations.lockById(invitationId, tx);
    const user = await this.addressee(userId);
    if (
      !invitation ||
      invitation.email !== user.email ||
      invitation.acceptedAt ||
      invitation.declinedAt ||
      !this.tokens.isLive(invitation.expiresAt) ||
      !(await this.organizations.find(invitation.organizationId, tx))
    ) {
      throw DomainError.notFound('no open invitation with this id for you');
    }
    return { invitation, user };
  }

  /** The caller, who must have proved their address before accepting anything sent to it. */
  private async addressee(userId: string): Promise<UserSummary> {
    const user = await this.users.findById(userId);
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    if (!user.emailVerified) throw DomainError.forbidden('verify your e-mail address first');
    return user;
  }

  /** The invited member record becomes the user's, active. */
  private async join(tx: Tx, invitation: Invitation, user: UserSummary): Promise<MemberView> {
    if (!(await this.organizations.lock(invitation.organizationId, tx))) {
      throw DomainError.badRequest('invalid or expired invitation token');
    }
    if (await this.members.findActiveByUser(invitation.organizationId, user.id, tx)) {
      throw DomainError.conflict('you are already a member of this organization');
    }
    const member = await this.members.lockById(invitation.memberId, tx);
    if (!member || member.status === 'removed') {
      throw DomainError.badRequest('invalid or expired invitation token');
    }
    const before = toMemberView(member);
    Object.assign(member, {
      userId: user.id,
      entityId: user.entityId,
      name: user.name ?? member.name,
      status: 'active',
    });
    const saved = await this.members.save(member, tx);
    invitation.acceptedAt = this.clock.now();
    await this.invitations.save(invitation, tx);
    await tx.record(
      memberEvent(
        'member.updated',
        user.id,
        saved,
        `member ${invitation.email}: accepted the invitation`,
        previousAttributes(before, toMemberView(saved)),
      ),
    );
    return toMemberView(saved);
  }
}
