import Anthropic, { AnthropicError, APIError } from '@anthropic-ai/sdk';
import { Injectable, Logger } from '@nestjs/common';
import { DomainError, OutboundHttp, retryAfterMs } from '../../common';
import { Env } from '../../config';

/** A Messages API request: `model` and `max_tokens` default to LLM_MODEL and LLM_MAX_TOKENS. */
export type LlmMessageParams = Omit<
  Anthropic.MessageCreateParamsNonStreaming,
  'model' | 'max_tokens'
> & { model?: string; max_tokens?: number };

export interface LlmCallOptions {
  /** Aborts the request (and the SDK's waits between attempts), e.g. when the client is gone. */
  signal?: AbortSignal;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/**
 * The longest wait between two attempts the SDK is let honour. Since 0.79 it waits whatever
 * `retry-after` (or `retry-after-ms`) asks, unbounded; a provider asking for more ends the
 * retries at once (503 `agentUnavailable` carrying that Retry-After) rather than holding the
 * request: the outbound base's fetch marks such an answer `x-should-retry: false`, which the SDK
 * obeys.
 */
export const MAX_RETRY_WAIT_MS = 60_000;

/**
 * The one client of the language model: @anthropic-ai/sdk configured from Env (LLM_API_KEY,
 * LLM_BASE_URL, LLM_TIMEOUT_MS per attempt, LLM_MAX_RETRIES). The SDK retries 408, 409, 429,
 * 5xx, timeouts and lost connections, waiting `retry-after` when given (at most
 * MAX_RETRY_WAIT_MS), else an exponential backoff from 0.5 s; what still fails is answered 503
 * `agentUnavailable`. Its `fetch` is the outbound base's (each attempt logged once, redacted; no
 * timeout or retries of its own: the SDK's). Only the agent module constructs it, and only while
 * the agent is enabled: it refuses to exist without LLM_API_KEY.
 */
@Injectable()
export class LlmClient {
  private readonly logger = new Logger('LlmClient');
  private readonly sdk: Anthropic;

  constructor(private readonly env: Env) {
    if (!env.LLM_API_KEY) {
      throw new Error('LlmClient needs LLM_API_KEY (without it the agent is off)');
    }
    const logger = this.logger;
    this.sdk = new Anthropic({
      // Every setting explicit, so that none comes from the SDK's own ANTHROPIC_* variables.
      apiKey: env.LLM_API_KEY,
      baseURL: env.LLM_BASE_URL ?? DEFAULT_BASE_URL,
      timeout: env.LLM_TIMEOUT_MS,
      maxRetries: env.LLM_MAX_RETRIES,
      fetch: new OutboundHttp({
        provider: 'llm',
        timeoutMs: 0,
        retries: 0,
        maxRetryDelayMs: MAX_RETRY_WAIT_MS,
      }).asFetch(),
      logLevel: 'warn',
      logger: {
        error: (message: string) => logger.error(message),
        warn: (message: string) => logger.warn(message),
        info: (message: string) => logger.log(message),
        debug: (message: string) => logger.debug(message),
      },
    });
  }

  /** The model of a request that names none (LLM_MODEL). */
  get defaultModel(): string {
    return this.env.LLM_MODEL;
  }

  /** Whether a request may name `model`: any when LLM_ALLOWED_MODELS is empty. */
  modelAllowed(model: string): boolean {
    const allowed = this.env.LLM_ALLOWED_MODELS;
    return allowed.length === 0 || allowed.includes(model);
  }

  /**
   * One (non-streaming) Messages API call. A model outside LLM_ALLOWED_MODELS → 400 before
   * anything is sent; any failure of the SDK once its retries are spent (an error status, a
   * timeout, a lost connection, an abort) → 503 `agentUnavailable`.
   */
  async createMessage(
    params: LlmMessageParams,
    options: LlmCallOptions = {},
  ): Promise<Anthropic.Message> {
    const model = params.model ?? this.env.LLM_MODEL;
    if (!this.modelAllowed(model)) {
      throw DomainError.badRequest(
        `model "${model}" is not allowed (allowed: ${this.env.LLM_ALLOWED_MODELS.join(', ')})`,
      );
    }
    try {
      return await this.sdk.messages.create(
        { ...params, model, max_tokens: params.max_tokens ?? this.env.LLM_MAX_TOKENS },
        { signal: options.signal },
      );
    } catch (err) {
      throw this.unavailable(err);
    }
  }

  /** An SDK error → 503 `agentUnavailable` (logged); anything else is ours and goes on as is. */
  private unavailable(err: unknown): unknown {
    if (!(err instanceof AnthropicError)) return err;
    const headers = err instanceof APIError ? err.headers : undefined;
    const requestId = headers?.get('request-id');
    this.logger.warn(
      `the language model gave no answer: ${err.message}${requestId ? ` (request-id ${requestId})` : ''}`,
    );
    const wait = headers ? retryAfterMs(headers) : undefined;
    return DomainError.keyed(
      'agentUnavailable',
      'the language model is unavailable; try again later',
      wait !== undefined && wait > 0
        ? { headers: { 'Retry-After': String(Math.ceil(wait / 1000)) } }
        : undefined,
    );
  }
}
