export { CapTableModule } from './cap-table.module';
export { holdsIncentiveSql } from './cap-table-records';
export { LedgerModule } from './ledger/ledger.module';
export { LedgerVerifier } from './ledger/ledger-verifier';
export type { Difference, Verification } from './ledger/ledger-verifier';
export { CapTableExportsModule } from './exports/cap-table-exports.module';
export { CertificateFacts } from './exports/certificate-facts.service';
export { IncentiveFacts } from './exports/incentive-facts.service';
export { CapTableCsv } from './exports/cap-table-csv.service';
export { ImportLock } from './exports/import-lock';
export type {
  CapTableImportRow,
  CapTableRow,
  CapTableRowSource,
  ImportOutcome,
  ImportRowError,
  ImportSummary,
} from './exports/cap-table-csv.service';
// The OCF import (src/ocf/import) writes through the ledger: its writer, and its reducer to check a package first.
export { CapTableCoreModule } from './cap-table-core.module';
export { LedgerWriter } from './ledger/ledger-writer';
export { StakeholderCounts } from './billing-counts';
// Billing reads the counts it charges by (the seats it pushes, the usage it shows).
export { readTally } from './ledger/equity-tally';
export type { Tally } from './ledger/equity-tally';
export { emptyState, LedgerRuleError } from './ledger/ledger-state';
export { applyTransaction } from './ledger/reducer';
export { MAX_LEGEND_NAME_LENGTH, MAX_LEGEND_TEXT_LENGTH } from './legends/legend-bounds';
export type { LedgerState } from './ledger/ledger-state';
export type { LedgerTransaction, SecurityRecord } from './ledger/transaction-types';
export type { LedgerChange } from './ledger/ledger-writer';
export type {
  HoldingRecord,
  HoldingTerms,
  HoldingType,
  PlanRecord,
  PoolRecord,
  VestingScheduleRecord,
} from './ledger/incentive-types';
// The OCF export keeps the entries of its date by the position's as-of rule.
export { AsOfReplay, countsFromSql, includedAsOf } from './position/as-of';
// The OCF export (src/ocf/export) reads the log through cursors of its own read-only transaction.
export { LedgerLogReader } from './ledger/ledger-log-reader';
export type { LedgerLogSnapshot } from './ledger/ledger-log-reader';
export type {
  LedgerLogAmendment,
  LedgerLogEntry,
  LoggedShareholding,
} from './ledger/ledger-log-entry';
export type { TransactionPayloads, TransactionType } from './ledger/transaction-types';
export type { ConversionRecord, ExercisePayload } from './ledger/incentive-types';
// The OCF module maps each transaction type as its definition says, both ways.
export {
  OCF_IMPORTERS,
  OCF_MANIFEST_IMPORTERS,
  ocfMappingOf,
  SHAREHOLDING_ENDINGS,
} from './ledger/transactions';
export type {
  ImportedPlan,
  ManifestEntry,
  OcfDone,
  OcfExportContext,
  OcfImportContext,
  OcfTarget,
} from './ledger/transactions';
