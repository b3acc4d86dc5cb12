export { CapTableModule } from './cap-table.module';
export { LedgerModule } from './ledger/ledger.module';
export { LedgerVerifier } from './ledger/ledger-verifier';
export type { Difference, Verification } from './ledger/ledger-verifier';
export { CapTableExportsModule } from './exports/cap-table-exports.module';
export { CertificateFacts } from './exports/certificate-facts.service';
export { CapTableCsv } from './exports/cap-table-csv.service';
export type {
  CapTableImportRow,
  CapTableRow,
  CapTableRowSource,
  ImportOutcome,
  ImportRowError,
  ImportSummary,
} from './exports/cap-table-csv.service';
