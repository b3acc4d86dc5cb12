import { Injectable, Logger } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OCF_SCHEMA_DIR, ledgerComment, OcfItem } from '../../../libs/ocf';
import { LedgerLogReader, type LedgerLogSnapshot } from '../../cap-table';
import { Clock, DomainError } from '../../common';
import { asciiName } from '../../documents';
import { OrganizationsDirectory } from '../../organizations';
import {
  firstCommonClass,
  issuer,
  legendTemplate,
  stakeholder,
  stockClass,
  stockPlan,
  valuation,
  vestingTerms,
} from './ocf-objects';
import { MANIFEST_NAME, OCF_FILES, OcfFileKey, ocfFileText, OcfZip } from './ocf-package';
import { OcfTransactionMapper } from './ocf-transactions';
import type { OcfExportQuery } from './ocf-export.dto';

let version: string | undefined;

/**
 * The OCF version a manifest declares: the `const` of `ocf_version` in the vendored manifest
 * schema (read, not compiled: the export does not validate, so it needs no Ajv).
 */
function ocfVersion(): string {
  version ??= (
    JSON.parse(
      readFileSync(join(OCF_SCHEMA_DIR, 'files', 'OCFManifestFile.schema.json'), 'utf8'),
    ) as {
      properties: { ocf_version: { const: string } };
    }
  ).properties.ocf_version.const;
  return version;
}

/** A name safe in a file name on every system (the header encodes the rest, RFC 5987). */
const fileNamePart = (name: string) =>
  // eslint-disable-next-line no-control-regex
  name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_').trim() || 'organization';

/** Batches of rows as batches of OCF items. */
async function* mapped<T>(batches: AsyncIterable<T[]>, map: (row: T) => OcfItem[] | OcfItem) {
  for await (const rows of batches) {
    const items: OcfItem[] = [];
    for (const row of rows) {
      const out = map(row);
      if (Array.isArray(out)) items.push(...out);
      else items.push(out);
    }
    yield items;
  }
}

async function* text(value: string) {
  yield value;
}

/**
 * `GET /v1/organization/:organization/ocf`: the cap table as an Open Cap Format package, a zip
 * streamed into the response as the database is read (docs/ocf.md has the mapping), all of it
 * from one snapshot of the log (LedgerLogReader) in which the organizations module reads too.
 *
 * Order of the entries: Transactions first (the log, read once through a cursor, feeds the
 * mapper, which keeps the definitions as they stand at the end), then Stakeholders (a cursor
 * over the members the transactions name), the small object files, and last the manifest,
 * which lists every file with its MD5 (taken as each entry was written).
 */
@Injectable()
export class OcfExportService {
  private readonly logger = new Logger(OcfExportService.name);

  constructor(
    private readonly log: LedgerLogReader,
    private readonly organizations: OrganizationsDirectory,
    private readonly clock: Clock,
  ) {}

  async export(res: Response, organizationId: string, query: OcfExportQuery): Promise<void> {
    const asOf = query.asOf;
    if (asOf && asOf > this.clock.today())
      throw DomainError.badRequest('asOf must not be in the future');
    const snapshot = await this.log.open();
    let zip: OcfZip | undefined;
    try {
      const organization = await this.organizations.organization(organizationId, snapshot.tx);
      if (!organization) throw DomainError.notFound('no such organization');
      const amendments = await snapshot.amendments(organizationId);
      const asOfDate = asOf ?? this.clock.today();
      const name = `${fileNamePart(organization.name)}-ocf-${asOfDate}.zip`;
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', contentDisposition(name, { fallback: asciiName(name) }));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, no-store');
      zip = new OcfZip(res);

      const mapper = new OcfTransactionMapper(asOf, organization.currency, amendments);
      const file = (
        key: OcfFileKey,
        batches: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
      ) => zip!.add(OCF_FILES[key].name, ocfFileText(OCF_FILES[key].fileType, batches));

      await file(
        'transactions',
        mapped(snapshot.log(organizationId), (row) => mapper.map(row)),
      );
      const named = await snapshot.namedMembers(organizationId, asOf);
      const members = this.organizations.membersByName(snapshot.tx, organizationId, named);
      await file('stakeholders', mapped(members, stakeholder));
      await this.objectFiles(mapper, organization.currency, file);
      await file('documents', [[]]);

      const manifest = {
        ocf_version: ocfVersion(),
        file_type: 'OCF_MANIFEST_FILE',
        issuer: issuer(organization),
        as_of: asOfDate,
        generated_at: this.clock.now().toISOString(),
        ...Object.fromEntries(
          Object.values(OCF_FILES).map((f) => [
            f.manifestKey,
            [{ filepath: `./${f.name}`, md5: zip!.md5.get(f.name) }],
          ]),
        ),
        ...(mapper.manifestComments.length ? { comments: mapper.manifestComments } : {}),
      };
      await zip.add(MANIFEST_NAME, text(`${JSON.stringify(manifest, null, 2)}\n`));
      await zip.finish();
    } catch (err) {
      if (!zip) throw err;
      // The headers are out: all that is left is to cut the response short.
      zip.abort();
      if (!res.destroyed) res.destroy(err as Error);
      const code = (err as { code?: string }).code;
      if (code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.error(`OCF export cut short: ${(err as Error).message}`);
      }
    } finally {
      await closeQuietly(snapshot);
    }
  }

  /** The object files, from the definitions as they stand once the whole log was read. */
  private async objectFiles(
    mapper: OcfTransactionMapper,
    currency: string,
    file: (key: OcfFileKey, batches: Iterable<readonly unknown[]>) => Promise<void>,
  ) {
    const s = mapper.state;
    const common = firstCommonClass(s.securities.values());
    await file('stockClasses', [
      [...s.securities.values()].map((c) =>
        stockClass(c, mapper.initialAuthorized.get(c.id) ?? c.authorized.toString(), common),
      ),
    ]);
    await file('stockLegendTemplates', [[...s.legends.values()].map(legendTemplate)]);
    const pools = [...s.pools.values()];
    await file('stockPlans', [
      [...s.plans.values()].map((p) =>
        stockPlan(
          p,
          mapper.initialReserved.get(p.id) ?? p.sharesReserved.toString(),
          pools.filter((po) => po.planId === p.id),
        ),
      ),
    ]);
    await file('vestingTerms', [[...s.schedules.values()].map(vestingTerms)]);
    const valuations: OcfItem[] = [];
    for (const v of s.valuations.values()) {
      const item = valuation(v, s.securities.get(v.securityId ?? '')?.currency ?? currency);
      if (item) valuations.push(item);
      else mapper.manifestComments.push(ledgerComment('valuation', v));
    }
    await file('valuations', [valuations]);
  }
}

async function closeQuietly(snapshot: LedgerLogSnapshot) {
  try {
    await snapshot.close();
  } catch {
    // The connection is gone already: nothing to give back.
  }
}
