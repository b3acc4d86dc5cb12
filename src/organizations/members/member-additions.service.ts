import { Injectable } from '@nestjs/common';
import { AccessContext, DomainError, normalizeEmail } from '../../common';
import { Tx, UnitOfWork } from '../../events';
import { LegalRecordsService } from '../../profiles';
import { RoleLookup, roleName } from '../roles/role-lookup';
import { NewMember, parseMemberCsv, RowError, rowErrors } from './member-csv';
import { Member } from './member.entity';
import { MemberRepository } from './member.repository';
import { assertMayGrant, memberEvent, memberLabel } from './member-rules';
import { MemberView, toMemberView } from './member.view';

const CSV_TYPES =
  /^(text\/csv|text\/plain|application\/vnd\.ms-excel|application\/csv|application\/octet-stream)$/;

/**
 * Recording people in an organization, one at a time or from a CSV file. Adding a member never
 * links a user account, whatever the e-mail address: it records a person (a shareholder who may
 * never sign in). A registered user gains access only by accepting an invitation, so the answer
 * is the same whether or not the address has an account.
 */
@Injectable()
export class MemberAdditionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly members: MemberRepository,
    private readonly roles: RoleLookup,
    private readonly records: LegalRecordsService,
  ) {}

  add(access: AccessContext, row: NewMember): Promise<MemberView> {
    return this.uow.run(async (tx) => toMemberView(await this.addInTx(tx, access, row)));
  }

  /** Every row through the same rules as `add`, in one transaction: all or nothing. */
  async upload(
    access: AccessContext,
    file: Express.Multer.File | undefined,
  ): Promise<MemberView[]> {
    if (!file) throw DomainError.keyed('missingFileArgument', 'attach the CSV file as `file`');
    if (!/\.csv$/i.test(file.originalname) || !CSV_TYPES.test(file.mimetype)) {
      throw DomainError.keyed('unsupportedFileExtension', 'upload a .csv file');
    }
    const rows = parseMemberCsv(file.buffer);
    return this.uow.run(async (tx) => {
      const added: Member[] = [];
      const errors: RowError[] = [];
      for (const [i, row] of rows.entries()) {
        try {
          added.push(await this.addInTx(tx, access, row));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          const column = (err.details.body?.field as string | undefined) ?? 'email';
          errors.push({ row: i + 2, column, reason: err.message });
        }
      }
      if (errors.length) throw rowErrors(errors);
      return added.map(toMemberView);
    });
  }

  private async addInTx(tx: Tx, access: AccessContext, row: NewMember): Promise<Member> {
    const organizationId = access.organizationId!;
    const role = await this.roles.resolve(tx, organizationId, row.role ?? 'Shareholder');
    assertMayGrant(access, role.id);
    const email = row.email ? normalizeEmail(row.email) : null;
    if (email && (await this.members.findCurrentByEmail(organizationId, email, tx))) {
      throw DomainError.conflict(`${email} is already a member`);
    }
    const name = row.name?.trim() || email || '';
    const entityId = await this.records.createForMember(tx, { name, email });
    const member = await this.members.add(
      {
        organizationId,
        userId: null,
        entityId,
        name,
        email,
        title: row.title ?? null,
        roleId: role.id,
        status: 'active',
      },
      tx,
    );
    await tx.record(
      memberEvent(
        'member.added',
        access.userId,
        member,
        `member ${memberLabel(member)}: added as ${roleName(role)}`,
      ),
    );
    return member;
  }
}
