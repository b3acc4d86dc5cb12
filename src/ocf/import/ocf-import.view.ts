import { ApiProperty } from '@nestjs/swagger';

const COUNT = { type: 'integer', minimum: 0 } as const;

/**
 * Something of the package the import could not keep as it was (a warning), or, in a 400's
 * `problems`, something that stops it: where it is and what is wrong, in words.
 */
export class OcfFindingView {
  /** The file of the package (its name in the zip); `''` for the zip itself. */
  file: string;

  /** A JSON pointer into that file (`/items/3/quantity`); `''` for the whole file. */
  path: string;

  reason: string;
}

/** What an import brought in (or would, on a dry run). */
export class OcfImportCountsView {
  /** Stakeholders of the package: each became a member, new or matched. */
  @ApiProperty(COUNT)
  stakeholders: number;

  /** Members created for stakeholders (Shareholders without an account). */
  @ApiProperty(COUNT)
  membersCreated: number;

  /** Stakeholders matched to a current member by e-mail address. */
  @ApiProperty(COUNT)
  membersMatched: number;

  @ApiProperty(COUNT)
  stockClasses: number;

  @ApiProperty(COUNT)
  stockLegendTemplates: number;

  @ApiProperty(COUNT)
  stockPlans: number;

  @ApiProperty(COUNT)
  vestingTerms: number;

  @ApiProperty(COUNT)
  valuations: number;

  /**
   * OCF transactions imported, by object type (`TX_STOCK_ISSUANCE`: 12); those folded into another
   * (a transfer's resulting issuance) are not counted.
   */
  @ApiProperty({
    type: 'object',
    additionalProperties: COUNT,
    example: { TX_STOCK_ISSUANCE: 12, TX_STOCK_TRANSFER: 2 },
  })
  transactions: Record<string, number>;

  /** Entries the import appends (or would append) to the ledger. */
  @ApiProperty(COUNT)
  ledgerTransactions: number;
}

/** The answer of `POST /v1/organization/:organization/ocf` (201, or 200 on a dry run). */
export class OcfImportResultView {
  /** True on a dry run: nothing was changed. */
  dryRun: boolean;

  imported: OcfImportCountsView;

  /** What had no counterpart (transaction types, fields, comments): listed, never dropped silently. */
  warnings: OcfFindingView[];
}
