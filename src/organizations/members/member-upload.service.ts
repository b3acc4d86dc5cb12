import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Not } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AccessContext } from '../permissions/access-context';
import { findRole } from '../roles/role-lookup';
import { OWNER_ROLE_ID } from '../permissions/permissions';
import { parseMemberCsv, RowError, rowErrors } from './member-csv';
import { Member } from './member.entity';
import { MembersService } from './members.service';
import { MemberView } from './member.view';

const CSV_TYPES =
  /^(text\/csv|text\/plain|application\/vnd\.ms-excel|application\/csv|application\/octet-stream)$/;

/** Bulk member creation from a CSV file: every row checked first, then all or nothing. */
@Injectable()
export class MemberUploadService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly members: MembersService,
  ) {}

  async upload(
    access: AccessContext,
    file: Express.Multer.File | undefined,
  ): Promise<MemberView[]> {
    if (!file) throw new AppError('missingFileArgument');
    if (!/\.csv$/i.test(file.originalname) || !CSV_TYPES.test(file.mimetype)) {
      throw new AppError('unsupportedFileExtension', 'upload a .csv file');
    }
    const rows = parseMemberCsv(file.buffer);
    const organizationId = access.organizationId!;
    const errors: RowError[] = [];
    const m = this.dataSource.manager;
    for (const [i, row] of rows.entries()) {
      const at = i + 2;
      try {
        const role = await findRole(m, organizationId, row.role ?? 'Shareholder');
        if (role.id === OWNER_ROLE_ID && access.roleId !== OWNER_ROLE_ID) {
          errors.push({
            row: at,
            column: 'role',
            reason: 'only an Owner may grant the Owner role',
          });
        }
      } catch (err) {
        errors.push({ row: at, column: 'role', reason: (err as Error).message });
      }
      if (
        row.email &&
        (await m.existsBy(Member, { organizationId, email: row.email, status: Not('removed') }))
      ) {
        errors.push({ row: at, column: 'email', reason: 'already a member' });
      }
    }
    if (errors.length) throw rowErrors(errors);
    return this.members.addMany(access, rows);
  }
}
