import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Injectable, Logger } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import type { Response } from 'express';
import { CapTableCsv, CapTableRowSource } from '../../cap-table';
import { Clock, DomainError } from '../../common';
import { OrganizationsDirectory } from '../../organizations';
import { CAP_TABLE_COLUMNS, csvCells, csvRecord } from './csv-columns';
import { CapTableExportQuery } from './csv.dto';

export const CSV_TYPE = 'text/csv; charset=utf-8';

/** A name safe in a file name on every system (the header encodes the rest, RFC 5987). */
const fileNamePart = (name: string) =>
  // eslint-disable-next-line no-control-regex
  name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_').trim() || 'organization';

/**
 * Writes cap tables to the response as they are read, never whole in memory: CSV (cells that
 * would start a formula neutralised, see csv-columns.ts), or a JSON array of the same rows. A
 * batch of rows becomes one piece of text and one write, not a stream chunk per row. Everything
 * that can fail with a proper error (the organization, `asOf`, the first pass of the rows)
 * happens before the headers go out; a failure later can only cut the response.
 */
@Injectable()
export class CsvExportService {
  private readonly logger = new Logger(CsvExportService.name);

  constructor(
    private readonly capTable: CapTableCsv,
    private readonly organizations: OrganizationsDirectory,
    private readonly clock: Clock,
  ) {}

  async organization(res: Response, organizationId: string, query: CapTableExportQuery) {
    const organization = await this.organizations.organization(organizationId);
    if (!organization) throw DomainError.notFound('no such organization');
    const source = await this.capTable.rows(organizationId, query.asOf);
    const sources = [source];
    if (query.format === 'json') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return this.send(res, [text(jsonArray(source))], sources);
    }
    const name = `captable-${fileNamePart(organization.name)}-${query.asOf ?? this.clock.today()}.csv`;
    this.csvHeaders(res, name);
    return this.send(res, [text(csvText(CAP_TABLE_COLUMNS, cellsOf(source)))], sources);
  }

  /** Every organization's cap table, one after the other, each row led by the organization's id. */
  async site(res: Response) {
    const organizations = await this.capTable.organizationsWithShares();
    const sources: CapTableRowSource[] = [];
    const capTable = this.capTable;
    async function* records() {
      for (const id of organizations) {
        const source = await capTable.rows(id);
        sources.push(source);
        for await (const batch of cellsOf(source)) yield batch.map((cells) => [id, ...cells]);
      }
    }
    this.csvHeaders(res, `captable-all-organizations-${this.clock.today()}.csv`);
    const columns = ['organization', ...CAP_TABLE_COLUMNS];
    return this.send(res, [text(csvText(columns, records()))], sources);
  }

  /** A small CSV document (the import template) as an attachment. */
  sendText(res: Response, fileName: string, text: string) {
    this.csvHeaders(res, fileName);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(text);
  }

  private csvHeaders(res: Response, fileName: string) {
    res.setHeader('Content-Type', CSV_TYPE);
    res.setHeader('Content-Disposition', contentDisposition(fileName));
  }

  /** Streams the body; the row sources are closed however it ends (their connections freed). */
  private async send(res: Response, body: Readable[], sources: CapTableRowSource[]) {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    try {
      await pipeline([...body, res]);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.error(`cap table export cut short: ${(err as Error).message}`);
      }
    } finally {
      await Promise.all(sources.map((s) => s.close()));
    }
  }
}

/** Pieces of text as a stream that reads one piece ahead (a piece is a batch of rows). */
const text = (pieces: AsyncIterable<string>) => Readable.from(pieces, { highWaterMark: 1 });

async function* cellsOf(source: CapTableRowSource) {
  for await (const batch of source) yield batch.map(csvCells);
}

/** The header row, then each batch of records as one piece of CSV text. */
async function* csvText(columns: readonly string[], batches: AsyncIterable<string[][]>) {
  yield csvRecord(columns);
  for await (const records of batches) {
    let text = '';
    for (const cells of records) text += csvRecord(cells);
    yield text;
  }
}

/** `[row,row,...]`, a batch of rows per chunk. */
async function* jsonArray(source: CapTableRowSource) {
  let text = '[';
  let first = true;
  for await (const batch of source) {
    for (const row of batch) {
      text += (first ? '' : ',') + JSON.stringify(row);
      first = false;
    }
    yield text;
    text = '';
  }
  yield `${text}]`;
}
