/**
 * ocf: the Open Cap Format schemas and samples vendored from the Open Cap Table Coalition
 * (`npm run ocf:vendor`; version in VERSION, licence in LICENSE.md) and a validator for them.
 * No Nest and no database; nothing here imports src/. Beside them, the values both sides of the
 * service's OCF mapping share (the ledger's transaction definitions and the OCF module): OCF
 * numbers and comments as written, the ids the export derives, and typed reading of OCF JSON.
 */
export { createOcfValidator, getOcfValidator, OCF_SAMPLES_DIR, OCF_SCHEMA_DIR } from './validator';
export type {
  OcfValidationError,
  OcfValidationResult,
  OcfValidator,
  OcfValidatorOptions,
} from './validator';
export { OCF_FILE_TYPES, OCF_OBJECT_TYPES } from './ocf-types';
export type { OcfFileType, OcfObjectType } from './ocf-types';
export {
  compact,
  ledgerComment,
  monetary,
  numeric,
  percentage,
  withComments,
  type OcfItem,
} from './ocf-values';
export {
  conversionTriggerId,
  derivedId,
  exerciseTriggerId,
  OCF_ID_NAMESPACE,
  uuidV5,
  VESTING_START_CONDITION,
  type DerivedRole,
} from './ocf-ids';
export {
  amount,
  arr,
  canonical,
  empty,
  NOTE,
  notesOf,
  obj,
  percent,
  str,
  type Json,
  type Located,
} from './ocf-json';
