import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { HOOK_CHANNELS, HOOK_THINKING, HOOK_TIMEOUT_SECONDS, HOOK_WAKE_MODES } from '../../config';

/** `{ok: false, error}`: every refusal of the hooks (inline: the one error body stays beside it). */
const FAILURE: SchemaObject = {
  type: 'object',
  required: ['ok', 'error'],
  properties: { ok: { type: 'boolean', enum: [false] }, error: { type: 'string' } },
};
const WOKEN: SchemaObject = {
  type: 'object',
  required: ['ok', 'mode'],
  properties: { ok: { type: 'boolean', enum: [true] }, mode: { enum: [...HOOK_WAKE_MODES] } },
};
const STARTED: SchemaObject = {
  type: 'object',
  required: ['ok', 'runId'],
  properties: { ok: { type: 'boolean', enum: [true] }, runId: { type: 'string' } },
};

const ORGANIZATION = {
  type: 'string',
  format: 'uuid',
  description:
    'The organization; else HOOKS_DEFAULT_ORGANIZATION. Outside HOOKS_ALLOWED_ORGANIZATIONS (when set): 403',
};
export const WAKE_BODY: SchemaObject = {
  type: 'object',
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1 },
    mode: { enum: [...HOOK_WAKE_MODES], default: 'now' },
    organization: ORGANIZATION,
  },
};
export const AGENT_BODY: SchemaObject = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string', minLength: 1 },
    name: { type: 'string', default: 'Hook' },
    sessionKey: { type: 'string', description: 'Default `hook:<uuid>`: a conversation of its own' },
    wakeMode: { enum: [...HOOK_WAKE_MODES], default: 'now' },
    deliver: { type: 'boolean', default: true },
    channel: { enum: [...HOOK_CHANNELS], default: 'last' },
    to: { type: 'string' },
    model: { type: 'string', description: 'One of LLM_ALLOWED_MODELS when that is set' },
    thinking: { enum: [...HOOK_THINKING] },
    timeoutSeconds: {
      type: 'number',
      minimum: HOOK_TIMEOUT_SECONDS.min,
      maximum: HOOK_TIMEOUT_SECONDS.max,
      default: HOOK_TIMEOUT_SECONDS.default,
    },
    organization: ORGANIZATION,
  },
};
export const MAPPED_BODY: SchemaObject = {
  type: 'object',
  additionalProperties: true,
  description:
    'Any JSON object: the mapping’s templates and transform read it (`source` chooses a mapping ' +
    'with `match.source`; a UUID `organization` names the organization unless the mapping fixes one)',
};

const failure = (status: number, description: string) =>
  ApiResponse({ status, description: `${description} \`{ok: false, error}\``, schema: FAILURE });

/** What every hook may answer besides its success. */
const REFUSALS = [
  failure(
    400,
    'A body that is not a JSON object, a bad field, or a missing or unknown organization',
  ),
  failure(
    401,
    'No hook token, or not HOOKS_TOKEN (as `Authorization: Bearer`, `x-service-token` or the deprecated `?token=`)',
  ),
  failure(403, 'The organization is not among HOOKS_ALLOWED_ORGANIZATIONS'),
  failure(413, 'A body larger than HOOKS_MAX_BODY_BYTES'),
  failure(415, 'A `Content-Encoding` other than identity'),
  failure(
    429,
    '10 failed tokens from the client address within 15 minutes: every hook from it until the ' +
      'window ends (`Retry-After`, `X-RateLimit-*`); or a limit of the agent',
  ),
  failure(500, 'An unexpected failure, or the mapping’s transform failed'),
];

const TOKEN_SOURCES =
  'Authenticated by HOOKS_TOKEN (no session): `Authorization: Bearer`, else `x-service-token`, ' +
  'else `?token=` (deprecated: answered with `Deprecation: true`). Another method than POST ' +
  'answers 405 with `Allow: POST`, on any path under HOOKS_PATH (`/hooks` by default).';

export const HOOK_DESCRIPTIONS = {
  wake:
    'Records a system event for the organization’s main agent conversation; `now` also queues ' +
    `a heartbeat. ${TOKEN_SOURCES}`,
  agent:
    'Queues an isolated agent turn in the conversation of `sessionKey`; its summary becomes a ' +
    `system event. ${TOKEN_SOURCES}`,
  mapped:
    'The first mapping whose `match` fits (the sub-path, which may hold slashes, and the ' +
    'payload’s `source`; HOOKS_MAPPINGS, then HOOKS_PRESETS) turns the payload into a wake or an ' +
    `agent run: 200 or 202 as those, 204 when its transform returns null. ${TOKEN_SOURCES}`,
};

/** A server started with the hooks composed but HOOKS_ENABLED off serves none of them. */
const OFF = 'hooks are off on this server (HOOKS_ENABLED): no such route, the one error body';
const off = () => ApiResponse({ status: 404, description: OFF[0].toUpperCase() + OFF.slice(1) });

export const ApiWakeHook = () =>
  applyDecorators(
    ApiBody({ schema: WAKE_BODY }),
    off(),
    ApiResponse({ status: 200, description: 'The event is recorded', schema: WOKEN }),
    ...REFUSALS,
  );

export const ApiAgentHook = () =>
  applyDecorators(
    ApiBody({ schema: AGENT_BODY }),
    off(),
    ApiResponse({ status: 202, description: 'The run is queued', schema: STARTED }),
    ...REFUSALS,
  );

export const ApiMappedHook = () =>
  applyDecorators(
    ApiParam({
      name: 'name',
      description: 'The sub-path a mapping matches (`github`; one with slashes, `ci/build`, too)',
    }),
    ApiBody({ schema: MAPPED_BODY }),
    ApiResponse({
      status: 200,
      description: 'A wake mapping: the event is recorded',
      schema: WOKEN,
    }),
    ApiResponse({
      status: 202,
      description: 'An agent mapping: the run is queued',
      schema: STARTED,
    }),
    ApiResponse({
      status: 204,
      description: 'The mapping’s transform returned null: nothing done',
    }),
    failure(404, `No mapping matches (or ${OFF})`),
    ...REFUSALS,
  );
