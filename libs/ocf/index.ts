/**
 * ocf: the Open Cap Format schemas and samples vendored from the Open Cap Table Coalition
 * (`npm run ocf:vendor`; version in VERSION, licence in LICENSE.md) and a validator for them.
 * No Nest and no database; nothing here imports src/.
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
