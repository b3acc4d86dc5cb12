import { Injectable } from '@nestjs/common';
import {
  ImportLock,
  LedgerRuleError,
  LedgerWriter,
  type LedgerChange,
  type LedgerState,
} from '../../cap-table';
import { AccessContext, Clock, DomainError } from '../../common';
import { Env } from '../../config';
import { HolderMembers } from '../../organizations';
import { ImportCounts, planImport, PlannedTransaction } from './ocf-mapping';
import { OcfPackage, readPackage } from './ocf-package';
import { OcfProblem, OcfWarning } from './ocf-problems';
import { readZip, ZIP_LIMITS, ZipLimits } from './ocf-zip';

const MiB = 1024 * 1024;

/** What an import answers: what it imported (or would, on a dry run) and what it could not keep. */
export interface OcfImportResult {
  dryRun: boolean;
  imported: ImportCounts;
  warnings: OcfWarning[];
}

/** The upload as multer leaves it. */
type Upload = Pick<Express.Multer.File, 'fieldname' | 'originalname' | 'buffer'>;

/** Thrown inside the transaction of a dry run, so that it rolls back with its answer. */
class DryRun {
  constructor(readonly result: OcfImportResult) {}
}

/** 400 `{error, key: invalidFields, message, problems}`; insufficientShares when the ledger ran short. */
export function refused(
  problems: OcfProblem[],
  key: 'invalidFields' | 'insufficientShares' = 'invalidFields',
) {
  return DomainError.keyed(
    key,
    `the OCF package cannot be imported (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was imported`,
    { body: { problems } },
  );
}

/**
 * Imports an OCF package (a zip) into an organization whose cap table is empty: the zip read
 * within limits, every file checked against the OCF schemas and every reference resolved, the
 * transactions mapped onto the ledger and replayed in memory with the ledger's reducer (every
 * problem reported at once), then written through the ledger writer in one database transaction
 * with the members the stakeholders become: all of it or nothing. A dry run does all of it and
 * rolls back. One import per organization at a time (ImportLock), dry runs included: they parse
 * and replay as much.
 */
@Injectable()
export class OcfImportService {
  constructor(
    private readonly ledger: LedgerWriter,
    private readonly holderMembers: HolderMembers,
    private readonly lock: ImportLock,
    private readonly env: Env,
    private readonly clock: Clock,
  ) {}

  async import(
    access: AccessContext,
    uploads: Upload[] | undefined,
    dryRun: boolean,
  ): Promise<OcfImportResult> {
    const upload = (uploads ?? []).find((u) => u.fieldname === 'file');
    if (!upload)
      throw DomainError.keyed('missingFileArgument', 'no file was uploaded in the field `file`');
    return this.lock.run(access.organizationId!, () => this.run(access, upload, dryRun));
  }

  private get zipLimits(): ZipLimits {
    return {
      entries: ZIP_LIMITS.entries,
      entryBytes: this.env.OCF_IMPORT_MAX_ENTRY_MB * MiB,
      totalBytes: this.env.OCF_IMPORT_MAX_TOTAL_MB * MiB,
    };
  }

  private async run(
    access: AccessContext,
    upload: Upload,
    dryRun: boolean,
  ): Promise<OcfImportResult> {
    const organizationId = access.organizationId!;
    const zip = await readZip(upload.buffer, this.zipLimits);
    if ('problems' in zip) throw refused(zip.problems);
    const read = readPackage(zip.files, this.env.OCF_IMPORT_MAX_OBJECTS_PER_FILE);
    if ('problems' in read) throw refused(read.problems);

    try {
      return await this.ledger.importInto(organizationId, access.userId, async (c, cap) => {
        if (!cap.empty) {
          throw DomainError.keyed(
            'capTableNotEmpty',
            'the organization already has a cap table: an OCF package is imported only into an empty one',
          );
        }
        const result = await this.write(c, access, read.package, read.warnings, dryRun);
        if (dryRun) throw new DryRun(result);
        return result;
      });
    } catch (err) {
      if (err instanceof DryRun) return err.result;
      throw err;
    }
  }

  /**
   * Writes a checked package into the empty cap table of the change's organization (the caller
   * holds the import lock or made the organization in this transaction): stakeholders matched to
   * members by e-mail or added as members, the transactions replayed through the writer, the
   * events recorded. A refusal is 400 with every problem. On a dry run nothing is written.
   */
  async write(
    c: LedgerChange,
    access: AccessContext,
    pkg: OcfPackage,
    warnings: OcfWarning[],
    dryRun = false,
  ): Promise<OcfImportResult> {
    const organizationId = access.organizationId!;
    const organization = access.organization!;
    const emails = pkg.stakeholders.flatMap((s) => emailsOf(s.object));
    const known = await this.holderMembers.find(c.tx, organizationId, [...new Set(emails)], []);
    const planned = planImport(pkg, {
      membersByEmail: known.byEmail,
      currency: organization.currency,
      fractional: organization.type === 'llc',
      today: this.clock.today(),
    });
    if ('problems' in planned) throw refused(planned.problems);
    const { plan } = planned;
    const result: OcfImportResult = {
      dryRun,
      imported: plan.counts,
      warnings: [...warnings, ...plan.warnings],
    };
    if (dryRun) return result;
    const created = plan.members.filter((m) => !m.existing);
    const unique = [...new Map(created.map((m) => [m.memberId, m])).values()];
    await this.holderMembers.add(
      c.tx,
      access,
      unique.map((m) => ({ id: m.memberId, name: m.name, email: m.email })),
    );
    for (const p of plan.transactions) await this.apply(c, p);
    await this.recordEvents(c, access, plan.state, plan.counts);
    return result;
  }

  /** One planned transaction through the writer; a refusal names the OCF transaction. */
  private async apply(c: LedgerChange, { source, tx }: PlannedTransaction) {
    try {
      await c.apply(tx.type, tx.effectiveDate, tx.payload as never);
    } catch (err) {
      if (!(err instanceof LedgerRuleError)) throw err;
      const problem: OcfProblem = {
        file: source?.file ?? '',
        path: source?.path ?? '',
        reason: `${source ? `${String(source.object.object_type)} ${String(source.object.id)}` : tx.type} is refused by the ledger (${err.rule}): ${err.message}`,
      };
      throw refused(
        [problem],
        err.rule === 'insufficientShares' ? 'insufficientShares' : 'invalidFields',
      );
    }
  }

  /**
   * As the other write paths of the cap table: `security.created` per class, `plan.created` per
   * plan, one `shareholding.imported` for the rest (an import is one act, as the CSV import), and
   * the counts billing charges by. The members' `member.added` are recorded as they are added.
   */
  private async recordEvents(
    c: LedgerChange,
    access: AccessContext,
    state: LedgerState,
    counts: ImportCounts,
  ) {
    const base = { organizationId: access.organizationId, actorUserId: access.userId };
    for (const s of state.securities.values()) {
      await c.record({
        ...base,
        type: 'security.created',
        object: {
          id: s.id,
          organization: access.organizationId,
          name: s.name,
          classType: s.classType,
          idPrefix: s.idPrefix,
          authorizedShares: s.authorized.toFixed(),
        },
        description: `class ${s.name}: created by an OCF import with ${s.authorized.toFixed()} authorized shares`,
      });
    }
    for (const p of state.plans.values()) {
      await c.record({
        ...base,
        type: 'plan.created',
        object: {
          id: p.id,
          organization: access.organizationId,
          name: p.name,
          security: p.securityId,
          sharesReserved: p.sharesReserved.toFixed(),
        },
        description: `plan ${p.name}: created by an OCF import with ${p.sharesReserved.toFixed()} shares reserved`,
      });
    }
    await c.record({
      ...base,
      type: 'shareholding.imported',
      object: { organization: access.organizationId, file: null, format: 'ocf', ...counts },
      description: `OCF package imported: ${counts.ledgerTransactions} ledger transactions, ${counts.membersCreated} members added`,
    });
  }
}

/** The e-mail addresses a stakeholder may be matched by (lower-cased). */
function emailsOf(o: Record<string, unknown>): string[] {
  const contact = (o.contact_info ?? o.primary_contact) as
    { emails?: { email_address?: string }[] } | undefined;
  const first = contact?.emails?.[0]?.email_address;
  return first ? [first.trim().toLowerCase()] : [];
}
