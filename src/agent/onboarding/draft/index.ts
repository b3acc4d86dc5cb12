// The onboarding draft: what a language model proposes, checked and built as the OCF import does.
export * from './onboarding-draft.dto';
export { validateDraft, MAX_DRAFT_ERRORS } from './draft-validation';
export { draftInputSchema } from './draft-schema';
export type { Describe, DraftInputSchema } from './draft-schema';
export * from './draft-collections';
export { coerceField } from './draft-corrections';
export { DRAFT_FILE, draftLocation, draftPackage, schemaProblems } from './draft-to-ocf';
export type { DraftPackageOptions } from './draft-to-ocf';
export { checkDraft, draftTotals } from './draft-check';
export type { CheckOptions, DraftCheck, DraftProblem, DraftTotals } from './draft-check';
export { DEFAULT_COMMON_AUTHORIZED, nameFromEmail, withDefaults } from './draft-defaults';
export type { Defaulted } from './draft-defaults';
