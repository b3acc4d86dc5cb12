// Cross-cutting pieces every module uses: errors, the access contract, HTTP helpers, crypto,
// logging. Common imports nothing from the domain modules.
export { DomainError, rateLimitHeaders } from './errors/domain-error';
export type { DomainErrorKey, DomainErrorDetails } from './errors/domain-error';
export { ERROR_CATALOGUE } from './errors/error-catalogue';
export type { ErrorKey } from './errors/error-catalogue';
export { AllExceptionsFilter } from './errors/exception.filter';
export { mapExpressErrors, renderDomainError, toDomainError } from './errors/render-error';
export type { RenderedError } from './errors/render-error';
export { validationError } from './errors/validation';

export {
  Authenticated,
  CsrfExempt,
  Machine,
  Permission,
  Public,
  RawBody,
} from './http/access.decorators';
export type {
  Access as AccessRule,
  MultipartOptions,
  PermissionTarget,
  DocumentStoreRule,
  RawBodyMode,
} from './http/access.decorators';
export {
  MACHINE_FAILURES,
  MACHINE_KINDS,
  MACHINE_SECURITY,
  MachineVerifiers,
} from './http/machine-access';
export type { MachineKind, MachineVerifier } from './http/machine-access';
export { markRawBodyRoutes, rawBodyOf } from './http/raw-body';
export { Access, CurrentUserId } from './http/access-context';
export type { AccessContext, OrganizationInContext } from './http/access-context';
export { AccessGuard, PERMISSION_CHECKER } from './http/access.guard';
export type { FormState, PermissionChecker } from './http/access.guard';
export { RecordResolvers } from './http/record-resolvers';
export type { RecordResolver } from './http/record-resolvers';
export { CsrfGuard } from './http/csrf.guard';
export { QueryParamsGuard } from './http/query-params.guard';
export { clientIp } from './http/client-ip';
export { JSON_TYPES, jsonBody } from './http/json-body';
export {
  CACHED_LIST_HEADERS,
  CachedList,
  defineList,
  definedLists,
  ListResponder,
} from './http/list-responder';
export type { ListSpec } from './http/list-responder';
export { conditionalListShortcut } from './http/conditional-list.middleware';
export { Multipart, MultipartInterceptor } from './http/multipart';
export { UploadSlots } from './http/upload-slots';
export { SHARED_REDIS } from './http/shared-redis';
export type { SharedRedis } from './http/shared-redis';
export { requestIdMiddleware } from './http/request-id.middleware';
export { EVENT_ID, UuidParamsPipe, WEBHOOK_ID } from './http/uuid-params.pipe';
export { listRoutes, routesOf } from './http/route-table';
export type { RouteEntry } from './http/route-table';
export { NormalizeEmail, Trim, TrimUpper } from './http/transforms';
export { DateField, DecimalField, Omittable, QueryFlag } from './http/value-decorators';
export { PageQuery } from './http/page-query';
export { RateLimiter } from './http/rate-limiter';
export { rateLimitCaller, requestRateLimit, uncountedRoute } from './http/request-rate-limit';
export { repeatEvery } from './time/repeat';
export { TOKEN_FAILURES_PER_IP, TokenFailureThrottle } from './http/token-failures';
export { AnswerCache } from './http/answer-cache';
export { InProcessRequests, inProcessCallerOf } from './http/in-process-requests';
export type {
  InProcessCaller,
  InProcessMethod,
  InProcessRequest,
  InProcessResponse,
} from './http/in-process-requests';
export type { RateLimit, RateLimitState } from './http/rate-limiter';
export {
  ApiErrors,
  ApiKeyedErrors,
  ApiValidationError,
  EMPTY_OBJECT,
  ErrorResponse,
  KeyedErrorResponse,
  MessageResponse,
  SuccessResponse,
} from './http/openapi';
export { completeDocument, ERROR_BODY } from './http/openapi-document';
export { documentSchemas, toOpenApi30 } from './http/json-schemas';
export { normalizeEmail } from './email';

export { CommonModule } from './common.module';
export { constantTimeEqual, SecretBox } from './crypto/secret-box';
export { TokenService } from './crypto/token.service';
export type { IssuedSecret } from './crypto/token.service';

export { Clock } from './time/clock';
export { AppLogger } from './logging/app-logger';
export { freePort, portAnswers } from './net';
export { ApiDocument } from './http/api-document';
export { ShutdownState, stopGracefullyOn } from './http/graceful-shutdown';
export type { ShutdownPlan } from './http/graceful-shutdown';
export { HttpDrain } from './http/http-drain';
export { pinnedOrganization, pinOrganization } from './http/organization-pin';
export {
  isRetryableStatus,
  networkError,
  OutboundHttp,
  OutboundHttpError,
  redactText,
  redactUrl,
  retryAfterMs,
} from './http/outbound';
export type {
  OutboundFailure,
  OutboundHttpOptions,
  OutboundLogger,
  OutboundRequest,
  OutboundResponse,
} from './http/outbound';
export { beforeCommitHooks, withBeforeCommit } from './db/before-commit';
export type { BeforeCommit } from './db/before-commit';
