import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  Matches,
  Max,
} from 'class-validator';
import { configSlice } from './slice';
import {
  blankTo,
  emptyToUndefined,
  IntegerIn,
  toTrimmedList,
  urlOpts,
  yesNo,
} from './variable-rules';

const pendingMinutes = {
  message: (args: { property: string; value: unknown }) =>
    `${args.property} must be a number of minutes above 0, at most 10080 (got "${String(args.value)}")`,
};

/**
 * The AI assistant (the agent), its model and its limits, onboarding's included: on when
 * LLM_API_KEY is set and AGENT_ENABLED is not false.
 */
export class AgentConfig {
  /** The language-model provider's API key (sent as `Authorization: Bearer`); unset: agent off. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  LLM_API_KEY?: string;

  /**
   * An Anthropic Messages API endpoint (a proxy, a gateway, a test fake) without `/v1`: the
   * client appends `/v1/messages`. Unset: https://api.anthropic.com.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, {
    message: 'LLM_BASE_URL must be an http(s) URL such as https://api.anthropic.com',
  })
  @Matches(/^(?!.*\/v1\/?$)/, {
    message: 'LLM_BASE_URL must not end in /v1 (the client appends /v1/messages)',
  })
  LLM_BASE_URL?: string;

  /** The model a request names when it names none; one of LLM_ALLOWED_MODELS when that is set. */
  @Transform(blankTo('claude-sonnet-4-6'))
  @Matches(/^\S+$/, { message: 'LLM_MODEL must be a model id such as claude-sonnet-4-6' })
  LLM_MODEL = 'claude-sonnet-4-6';

  /** The models a request may name; empty: any. */
  @Transform(toTrimmedList)
  @IsString({ each: true })
  LLM_ALLOWED_MODELS: string[] = [];

  /** `max_tokens` of a request that sets none: the most tokens one answer of the model may have. */
  @Transform(blankTo(4096, Number))
  @IntegerIn(1, 1_000_000)
  LLM_MAX_TOKENS = 4096;

  /** How long one attempt may take, from sending the request to the end of the answer. */
  @Transform(blankTo(120_000, Number))
  @IntegerIn(1, 3_600_000)
  LLM_TIMEOUT_MS = 120_000;

  /** Further attempts after a 408, 409, 429, 5xx, timeout or lost connection; then 503. */
  @Transform(blankTo(2, Number))
  @IntegerIn(0, 10)
  LLM_MAX_RETRIES = 2;

  /** Only `false` turns the agent off (it is off anyway without LLM_API_KEY). */
  @Transform(blankTo(true, yesNo))
  @IsBoolean({ message: 'AGENT_ENABLED must be true or false' })
  AGENT_ENABLED = true;

  /** Write actions the agent proposes wait for the user's confirmation. */
  @Transform(blankTo(true, yesNo))
  @IsBoolean({ message: 'AGENT_CONFIRM_WRITE_OPERATIONS must be true or false' })
  AGENT_CONFIRM_WRITE_OPERATIONS = true;

  @Transform(blankTo(30, Number))
  @IntegerIn(1, 10_000)
  AGENT_MAX_TOOL_CALLS_PER_MINUTE = 30;

  @Transform(blankTo(10, Number))
  @IntegerIn(1, 10_000)
  AGENT_MAX_WRITE_OPS_PER_MINUTE = 10;

  @Transform(blankTo(5, Number))
  @IntegerIn(1, 10_000)
  AGENT_MAX_DESTRUCTIVE_PER_HOUR = 5;

  /** How long a write action waits for its confirmation, in minutes (fractions allowed). */
  @Transform(blankTo(60, Number))
  @IsNumber({ allowNaN: false, allowInfinity: false }, pendingMinutes)
  @IsPositive(pendingMinutes)
  @Max(10_080, pendingMinutes)
  AGENT_PENDING_TTL_MINUTES = 60;

  /** Round trips to the model (each answering its tool calls) within one chat message. */
  @Transform(blankTo(8, Number))
  @IntegerIn(1, 100)
  AGENT_MAX_TOOL_ROUNDS = 8;

  /** Chat turns (each calling the model) one user may start per hour. */
  @Transform(blankTo(60, Number))
  @IntegerIn(1, 100_000)
  AGENT_TURNS_PER_USER_PER_HOUR = 60;

  /**
   * Input and output tokens (the provider's `usage`) the agent may spend per organization per UTC
   * day: chat turns, heartbeats and hook runs; a founder's onboarding analyses count per user.
   */
  @Transform(blankTo(2_000_000, Number))
  @IntegerIn(1)
  AGENT_ORG_DAILY_TOKENS = 2_000_000;

  /** Characters of one prompt: system text, stored messages and tool results (oldest left out). */
  @Transform(blankTo(200_000, Number))
  @IntegerIn(25_000, 10_000_000)
  AGENT_MAX_PROMPT_CHARS = 200_000;

  /** Conversations one user keeps; starting one more deletes their least recently used. */
  @Transform(blankTo(200, Number))
  @IntegerIn(1, 100_000)
  AGENT_MAX_CONVERSATIONS_PER_USER = 200;

  /** Days after its last message a conversation is deleted by the daily clean-up. */
  @Transform(blankTo(90, Number))
  @IntegerIn(1, 36_500)
  AGENT_CONVERSATION_RETENTION_DAYS = 90;

  /** Onboardings created through the public route per client IP (IPv6: per /64) per hour. */
  @Transform(blankTo(10, Number))
  @IntegerIn(1)
  ONBOARDING_IP_LIMIT = 10;

  /** Onboardings created through the public route per hour, all clients together. */
  @Transform(blankTo(200, Number))
  @IntegerIn(1)
  ONBOARDING_CREATES_PER_HOUR = 200;

  /** Analyses one onboarding may ask for (analyze, setup) per day. */
  @Transform(blankTo(5, Number))
  @IntegerIn(1, 1000)
  ONBOARDING_ANALYSES_PER_ONBOARDING = 5;

  /** Tokens per UTC day of the analyses of onboardings no user has linked yet, all together. */
  @Transform(blankTo(20_000_000, Number))
  @IntegerIn(1)
  ONBOARDING_ANONYMOUS_DAILY_TOKENS = 20_000_000;
}

/** The agent's routes exist only when the model's API key is set and AGENT_ENABLED is not false. */
export const agentEnabled = (env: Pick<AgentConfig, 'LLM_API_KEY' | 'AGENT_ENABLED'>): boolean =>
  Boolean(env.LLM_API_KEY) && env.AGENT_ENABLED !== false;

export const agentSlice = configSlice({
  name: 'agent',
  schema: AgentConfig,
  check: (env, raw) => {
    if (!env.LLM_ALLOWED_MODELS.length) return [];
    const allowed = env.LLM_ALLOWED_MODELS.join(', ');
    const named = typeof raw.LLM_MODEL === 'string' && raw.LLM_MODEL.trim() !== '';
    if (!named) return [`  LLM_MODEL: required with LLM_ALLOWED_MODELS (one of ${allowed})`];
    if (!env.LLM_ALLOWED_MODELS.includes(env.LLM_MODEL))
      return [
        `  LLM_MODEL: must be one of LLM_ALLOWED_MODELS (${allowed}) (got "${env.LLM_MODEL}")`,
      ];
    return [];
  },
});
