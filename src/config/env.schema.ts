import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { AgentConfig, agentSlice } from './agent';
import { AuthConfig, authSlice } from './auth';
import { BillingConfig, billingSlice } from './billing';
import { ChatConfig, chatSlice } from './chat';
import { DatabaseConfig, databaseSlice } from './database';
import { EncryptionConfig, encryptionSlice } from './encryption';
import { EventsConfig, eventsSlice } from './events';
import { HooksConfig, hooksSlice } from './hooks';
import { HttpConfig, httpSlice } from './http';
import { IdpConfig, idpSlice } from './idp';
import { ImportsConfig, importsSlice } from './imports';
import { LimitsConfig, limitsSlice } from './limits';
import { MailConfig, mailSlice } from './mail';
import { MicrosoftConfig, microsoftSlice } from './microsoft';
import { PlatformConfig, platformSlice } from './platform';
import { ReadsConfig, readsSlice } from './reads';
import { RedisConfig, redisSlice } from './redis';
import { ReferralConfig, referralSlice } from './referral';
import { ConfigSlice, RawEnv, variablesOf } from './slice';
import { StorageConfig, storageSlice } from './storage';
import { WebhooksConfig, webhooksSlice } from './webhooks';

export { agentEnabled } from './agent';
export { LOG_LEVELS, NODE_ENVS } from './platform';
export type { LogLevelName } from './platform';

/**
 * Every slice of the configuration, in the order of the README's table, of `.env.example` and of
 * the report when start-up stops. Each variable is declared in exactly one (a unit test holds it);
 * `Env` has them all. Typed against `Env`, so what a slice's check reads of another slice is
 * there.
 */
export const CONFIG_SLICES: readonly ConfigSlice<object, Env>[] = [
  platformSlice,
  httpSlice,
  limitsSlice,
  databaseSlice,
  redisSlice,
  eventsSlice,
  authSlice,
  encryptionSlice,
  mailSlice,
  idpSlice,
  storageSlice,
  microsoftSlice,
  importsSlice,
  readsSlice,
  billingSlice,
  referralSlice,
  webhooksSlice,
  agentSlice,
  chatSlice,
  hooksSlice,
];

/**
 * The whole configuration: every slice's variables (with their defaults, as own fields) and
 * getters. What most of the service injects; a module may inject its own slice instead.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the class is the injection token and holds the fields at run time; the interface gives them their types
export interface Env
  extends
    PlatformConfig,
    HttpConfig,
    LimitsConfig,
    DatabaseConfig,
    RedisConfig,
    EventsConfig,
    AuthConfig,
    EncryptionConfig,
    MailConfig,
    IdpConfig,
    StorageConfig,
    MicrosoftConfig,
    ImportsConfig,
    ReadsConfig,
    BillingConfig,
    ReferralConfig,
    WebhooksConfig,
    AgentConfig,
    ChatConfig,
    HooksConfig {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface
export class Env {
  constructor() {
    for (const slice of CONFIG_SLICES) Object.assign(this, new slice.schema());
  }
}

// The slices' getters (`chatConfigured`, `trustProxy`, ...) on the whole as on each slice.
for (const slice of CONFIG_SLICES) {
  const { constructor: _, ...getters } = Object.getOwnPropertyDescriptors(slice.schema.prototype);
  for (const [name, getter] of Object.entries(getters)) {
    if (Object.prototype.hasOwnProperty.call(Env.prototype, name))
      throw new Error(`Configuration: ${name} is defined by two slices`);
    Object.defineProperty(Env.prototype, name, getter);
  }
}

/**
 * Reads and validates every slice, then runs every slice's check on the whole; stops with one
 * message naming every problem (slice by slice), or answers the typed configuration.
 */
export function validateEnv(raw: RawEnv): Env {
  const env = new Env();
  const read = CONFIG_SLICES.map((slice) => readSlice(slice, raw, env));
  const problems = CONFIG_SLICES.flatMap((slice, i) => [
    ...read[i],
    ...(slice.check?.(env, raw) ?? []),
  ]);
  if (problems.length) {
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return env;
}

/** Validates one slice's variables and sets their values on `env`; what is wrong with them. */
function readSlice(slice: ConfigSlice<object, Env>, raw: RawEnv, env: Env): string[] {
  const variables = variablesOf(slice);
  const given = Object.fromEntries(
    variables.filter((name) => name in raw).map((name) => [name, raw[name]]),
  );
  const values = plainToInstance(slice.schema, given, { exposeDefaultValues: true });
  for (const name of variables) {
    (env as unknown as RawEnv)[name] = (values as RawEnv)[name];
  }
  const errors = validateSync(values, { whitelist: false, forbidUnknownValues: false });
  return errors.map((e) => `  ${e.property}: ${firstMessage(e)}`);
}

/** One message per variable: the first rule it breaks (the others usually say the same). */
const firstMessage = (e: ValidationError) => Object.values(e.constraints ?? {})[0] ?? 'invalid';
