/**
 * Every error key of spec section 7: the name used in code, the value sent on the wire and the
 * HTTP status. Services throw `DomainError.keyed('emailUnavailable')`; the global filter renders
 * `{error: <status text>, key: <wire value>}`.
 */
export const ERROR_CATALOGUE = {
  // Application error keys (section 7 table): all 400.
  emailUnavailable: { wire: 'emailUnavailable', status: 400 },
  emailNotVerified: { wire: 'emailNotVerified', status: 400 },
  existingActiveTempPassword: { wire: 'existingActiveTempPassword', status: 400 },
  invalidCredentials: { wire: 'invalidCredentials', status: 400 },
  invalidEmailVerificationCode: { wire: 'invalidEmailVerificationCode', status: 400 },
  invalidTwoFactorToken: { wire: 'invalidTwoFactorToken', status: 400 },
  Unauthorized: { wire: 'Unauthorized', status: 400 },
  recentEmailVerification: { wire: 'recentEmailVerification', status: 400 },
  userNotFound: { wire: 'userNotFound', status: 400 },
  emailBlacklisted: { wire: 'EmailBlacklisted', status: 400 },
  domainBlacklisted: { wire: 'DomainBlacklisted', status: 400 },
  ipLimit: { wire: 'ipLimitReached', status: 400 },
  // Other server error keys.
  databaseMissing: { wire: 'databaseMissing', status: 503 },
  resourceNotFound: { wire: 'resourceNotFound', status: 404 },
  unauthorized: { wire: 'unauthorized', status: 401 },
  invalidFields: { wire: 'invalidFields', status: 400 },
  unsupportedFileExtension: { wire: 'unsupportedFileExtension', status: 400 },
  missingFileArgument: { wire: 'missingFileArgument', status: 400 },
  insufficientShares: { wire: 'insufficientShares', status: 400 },
  // Our own keys (not in the spec's section 7; spec:check only checks the spec's are here).
  capTableNotEmpty: { wire: 'capTableNotEmpty', status: 409 },
  databaseTimeout: { wire: 'databaseTimeout', status: 503 },
  tooManyUploads: { wire: 'tooManyUploads', status: 429 },
  importInProgress: { wire: 'importInProgress', status: 409 },
  valueOutOfRange: { wire: 'valueOutOfRange', status: 400 },
  queryResponseTooLarge: { wire: 'queryResponseTooLarge', status: 413 },
  // The billing provider's routes while BILLING_PROVIDER_URL and BILLING_API_KEY are unset.
  billingNotConfigured: { wire: 'billingNotConfigured', status: 500 },
  // Idempotency-Key: a malformed key, the key of another request, the key of one still running.
  invalidIdempotencyKey: { wire: 'invalidIdempotencyKey', status: 400 },
  idempotencyKeyReused: { wire: 'idempotencyKeyReused', status: 422 },
  idempotencyKeyInProgress: { wire: 'idempotencyKeyInProgress', status: 409 },
  // The first request with the key wrote, and its server stopped before keeping its answer.
  idempotencyKeyApplied: { wire: 'idempotencyKeyApplied', status: 409 },
  // A webhook URL with a refused scheme or address (issue 21's SSRF rules).
  webhookUrlNotAllowed: { wire: 'webhookUrlNotAllowed', status: 400 },
  // The language model of the agent gave no answer (after its retries): try again later.
  agentUnavailable: { wire: 'agentUnavailable', status: 503 },
  // The agent's daily budget of language-model tokens (an organization's, or an onboarding's) is spent.
  agentBudgetExhausted: { wire: 'agentBudgetExhausted', status: 429 },
  // Team messaging: not configured, or the messaging server failed a session or a member sync.
  chatNotConfigured: { wire: 'chatNotConfigured', status: 500 },
  chatProvisioningFailed: { wire: 'chatProvisioningFailed', status: 500 },
  chatSyncFailed: { wire: 'chatSyncFailed', status: 500 },
  // Referral credit: a transfer of more than the source's balance.
  insufficientCredit: { wire: 'insufficientCredit', status: 400 },
  // The identity provider's contacts: its OAuth client is not configured, or the caller connected none.
  driveNotConfigured: { wire: 'driveNotConfigured', status: 500 },
  idpNotConnected: { wire: 'idpNotConnected', status: 404 },
  // The cloud-drive sync: the organization has no active drive connection.
  driveNotConnected: { wire: 'driveNotConnected', status: 409 },
} as const satisfies Record<string, { wire: string; status: number }>;

export type ErrorKey = keyof typeof ERROR_CATALOGUE;

export const isErrorKey = (key: string): key is ErrorKey => key in ERROR_CATALOGUE;
