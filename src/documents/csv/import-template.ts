import { stringify } from 'csv-stringify/sync';
import { CAP_TABLE_COLUMNS, RECORD_DELIMITER } from './csv-columns';

/** One row showing what each column takes (`status` and `ownershipPercent` are not read). */
const EXAMPLE: Record<(typeof CAP_TABLE_COLUMNS)[number], string> = {
  holderName: 'Jane Doe',
  holderEmail: 'jane.doe@example.com',
  security: 'Common Stock',
  classType: 'common',
  quantity: '1000',
  pricePerShare: '0.0001',
  issueDate: '2024-01-15',
  certificateNumber: 'CS-1',
  status: 'active',
  ownershipPercent: '100.0000',
};

/** The CSV import template: the header row and one example row. */
export const IMPORT_TEMPLATE = stringify(
  [[...CAP_TABLE_COLUMNS], CAP_TABLE_COLUMNS.map((c) => EXAMPLE[c])],
  {
    record_delimiter: RECORD_DELIMITER,
  },
);
