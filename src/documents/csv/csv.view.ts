import { ApiProperty } from '@nestjs/swagger';
import { FileRecordView } from '../files/stored-file.view';

/** A non-negative decimal as text, without trailing zeros (`1000`, `0.5`). */
const DECIMAL = '^\\d+(\\.\\d+)?$';

/**
 * A row of `GET /v1/organization/:organization/captable?format=json`: an active shareholding, with
 * the columns of the CSV (decimals as strings, absent values null; no formula neutralising).
 */
export class CapTableRowView {
  /** The holder's (member's) name. */
  holderName: string;

  /** The holder's e-mail address; null when the member has none. */
  @ApiProperty({ type: String, nullable: true })
  holderEmail: string | null;

  /** The share class's name. */
  security: string;

  @ApiProperty({ enum: ['common', 'preferred'] })
  classType: string;

  /** Shares held (whole, but for an LLC's units). */
  @ApiProperty({ pattern: DECIMAL, example: '1000' })
  quantity: string;

  /** Price paid per share; null when none was recorded. */
  @ApiProperty({ type: String, nullable: true, pattern: DECIMAL, example: '0.5' })
  pricePerShare: string | null;

  @ApiProperty({ format: 'date', example: '2024-01-15' })
  issueDate: string;

  /** The class prefix and number (`CS-12`). */
  certificateNumber: string;

  /** Only active shareholdings are in the cap table. */
  @ApiProperty({ enum: ['active'] })
  status: string;

  /** Of the issued shares the rows add up to, 4 decimals; the column sums to exactly 100. */
  @ApiProperty({ pattern: '^\\d{1,3}\\.\\d{4}$', example: '33.3333' })
  ownershipPercent: string;
}

/** What an import adds (or would add, on a dry run). */
export class CsvImportSummaryView {
  /** The file's rows (the header aside). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  rows: number;

  /** Members created (rows naming an existing member add none). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  holders: number;

  /** Share classes created. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  securities: number;

  /** Shareholdings issued: one per row. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  shareholdings: number;
}

/** The answer of `POST /v1/organization/:organization/import`. */
export class CsvImportResultView {
  /** The stored file (purpose import; `GET .../import?file=<id>` gives it back); null on a dry run. */
  @ApiProperty({ type: FileRecordView, nullable: true })
  file: FileRecordView | null;

  imported: CsvImportSummaryView;
}
