import { Injectable } from '@nestjs/common';
import { AccessContext, Clock } from '../../common';
import { Tx } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { RoleLookup, roleName } from '../roles/role-lookup';
import { Member } from './member.entity';
import { MemberRepository } from './member.repository';
import { memberEvent, memberLabel } from './member-rules';

/** A person a cap table import names who is not a member yet; `id` is the import's choice. */
export interface NewHolder {
  id: string;
  name: string;
  /** Lower-cased, or null. */
  email: string | null;
}

/** The organization's current members the import's holders may be. */
export interface KnownHolders {
  /** By (lower-case) e-mail address. */
  byEmail: Map<string, string>;
  /** By name: every current member of that name (several make the name ambiguous). */
  byName: Map<string, string[]>;
}

/** Events per outbox call: a call's arguments stay well under V8's limit. */
const EVENTS_PER_WRITE = 10_000;

/**
 * Members for the holders of a cap table import, in the import's own transaction (so a refused
 * import leaves no member behind). They are recorded as `POST .../member` records them (an
 * active Shareholder without an account, a legal entity made for them, a `member.added` event
 * each), but inserted in bulk: an import may name thousands of holders. The ids are the
 * import's, so its ledger transactions can name the members before the rows exist.
 */
@Injectable()
export class HolderMembers {
  constructor(
    private readonly members: MemberRepository,
    private readonly roles: RoleLookup,
    private readonly records: LegalRecordsService,
    private readonly clock: Clock,
  ) {}

  /** The current members having one of the e-mail addresses or names. */
  async find(
    tx: Tx,
    organizationId: string,
    emails: string[],
    names: string[],
  ): Promise<KnownHolders> {
    const rows = await this.members.currentByEmailsOrNames(organizationId, emails, names, tx);
    const known: KnownHolders = { byEmail: new Map(), byName: new Map() };
    for (const m of rows) {
      if (m.email) known.byEmail.set(m.email, m.id);
      known.byName.set(m.name, [...(known.byName.get(m.name) ?? []), m.id]);
    }
    return known;
  }

  /** Records the holders as active Shareholders, with their `member.added` events. */
  async add(tx: Tx, access: AccessContext, holders: NewHolder[]): Promise<void> {
    if (!holders.length) return;
    const organizationId = access.organizationId!;
    const role = await this.roles.resolve(tx, organizationId, 'Shareholder');
    const entities = await this.records.createForMembers(tx, holders);
    const now = this.clock.now();
    const members = holders.map((h, i) =>
      Object.assign(new Member(), {
        id: h.id,
        organizationId,
        userId: null,
        entityId: entities[i],
        name: h.name,
        email: h.email,
        title: null,
        roleId: role.id,
        status: 'active' as const,
        removedAt: null,
        created: now,
        updated: now,
      }),
    );
    await this.members.insertMany(members, tx);
    for (let i = 0; i < members.length; i += EVENTS_PER_WRITE) {
      const chunk = members.slice(i, i + EVENTS_PER_WRITE);
      await tx.record(
        ...chunk.map((m) =>
          memberEvent(
            'member.added',
            access.userId,
            m,
            `member ${memberLabel(m)}: added as ${roleName(role)}`,
          ),
        ),
      );
    }
  }
}
