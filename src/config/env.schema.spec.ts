import { agentEnabled, validateEnv } from './env.schema';

describe('validateEnv', () => {
  it('applies the defaults', () => {
    const env = validateEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.API_SESSION_MAX_AGE).toBe(604_800_000);
    expect(env.REGISTRATION_IP_LIMIT).toBe(20);
    expect(env.EMAIL_VERIFICATION_LIMIT_SECONDS).toBe(1800);
  });

  it('converts numbers, lists and booleans from their text', () => {
    const env = validateEnv({
      PORT: '8080',
      BLOCKED_EMAIL_DOMAINS: 'Spam.io, junk.test',
      SWAGGER_ENABLED: 'false',
    });
    expect(env.PORT).toBe(8080);
    expect(env.BLOCKED_EMAIL_DOMAINS).toEqual(['spam.io', 'junk.test']);
    expect(env.SWAGGER_ENABLED).toBe(false);
  });

  it('refuses private webhook URLs unless WEBHOOK_ALLOW_PRIVATE_URLS is true', () => {
    expect(validateEnv({}).WEBHOOK_ALLOW_PRIVATE_URLS).toBeFalsy();
    expect(validateEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: '' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBeFalsy();
    expect(validateEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(
      true,
    );
    expect(() => validateEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'maybe' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_URLS must be true or false/,
    );
  });

  it('names every bad variable in one message', () => {
    expect(() =>
      validateEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', NODE_ENV: 'staging' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
    expect(() => validateEnv({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
  });

  it('names the variable and the accepted values of a bad choice', () => {
    expect(() => validateEnv({ LOG_LEVEL: 'chatty' })).toThrow(
      'LOG_LEVEL: LOG_LEVEL must be one of error, warn, log, debug, verbose (got "chatty")',
    );
    expect(() => validateEnv({ PORT: '70000' })).toThrow(/PORT must be an integer from 0 to 65535/);
  });

  it('bounds statements: 15 s per request, 5 min for imports and exports, never the long one shorter', () => {
    const env = validateEnv({});
    expect(env.DATABASE_STATEMENT_TIMEOUT_MS).toBe(15_000);
    expect(env.DATABASE_LONG_STATEMENT_TIMEOUT_MS).toBe(300_000);
    expect(
      validateEnv({ DATABASE_STATEMENT_TIMEOUT_MS: '2000' }).DATABASE_STATEMENT_TIMEOUT_MS,
    ).toBe(2000);
    expect(() => validateEnv({ DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow(
      /DATABASE_STATEMENT_TIMEOUT_MS must be an integer from 1 to 2147483647 \(got "0"\)/,
    );
    expect(() => validateEnv({ DATABASE_LONG_STATEMENT_TIMEOUT_MS: '15s' })).toThrow(
      /DATABASE_LONG_STATEMENT_TIMEOUT_MS must be an integer/,
    );
    expect(() =>
      validateEnv({
        DATABASE_STATEMENT_TIMEOUT_MS: '60000',
        DATABASE_LONG_STATEMENT_TIMEOUT_MS: '30000',
      }),
    ).toThrow(
      'DATABASE_LONG_STATEMENT_TIMEOUT_MS: must be at least DATABASE_STATEMENT_TIMEOUT_MS (60000)',
    );
  });

  it('accepts MAIL_FROM as a bare address or as "Name <address>", and nothing else', () => {
    expect(validateEnv({ MAIL_FROM: 'no-reply@example.com' }).MAIL_FROM).toBe(
      'no-reply@example.com',
    );
    expect(validateEnv({ MAIL_FROM: 'Ledgerline <no-reply@example.com>' }).MAIL_FROM).toBe(
      'Ledgerline <no-reply@example.com>',
    );
    expect(validateEnv({ MAIL_FROM: '"Acme, Inc." <ops@acme.test>' }).MAIL_FROM).toBe(
      '"Acme, Inc." <ops@acme.test>',
    );
    for (const bad of ['Ledgerline <no-reply@>', 'not an address', 'a@b.test, c@d.test']) {
      expect(() => validateEnv({ MAIL_FROM: bad })).toThrow(/MAIL_FROM must be an e-mail address/);
    }
  });

  it('leaves X-Forwarded-For untrusted unless TRUST_PROXY names the proxies', () => {
    expect(validateEnv({}).trustProxy).toBe(false);
    expect(validateEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(validateEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
    expect(() => validateEnv({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
    expect(() => validateEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('takes a CHAT_GATEWAY_TOKEN of 32 characters or more only (issue 35)', () => {
    expect(() => validateEnv({ CHAT_GATEWAY_TOKEN: 'g'.repeat(31) })).toThrow(
      'CHAT_GATEWAY_TOKEN: CHAT_GATEWAY_TOKEN must be at least 32 characters',
    );
    expect(validateEnv({ CHAT_GATEWAY_TOKEN: 'g'.repeat(32) }).CHAT_GATEWAY_TOKEN).toHaveLength(32);
    expect(validateEnv({ CHAT_GATEWAY_TOKEN: '' }).CHAT_GATEWAY_TOKEN).toBeUndefined();
  });

  it('requires SESSION_SECRET and ENCRYPTION_KEY in production', () => {
    expect(() => validateEnv({ NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET[\s\S]*ENCRYPTION_KEY/,
    );
    expect(() =>
      validateEnv({
        NODE_ENV: 'production',
        SESSION_SECRET: 'x'.repeat(32),
        ENCRYPTION_KEY: 'a'.repeat(64),
      }),
    ).not.toThrow();
  });

  it('turns billing on with the provider URL and API key together, blanks meaning the defaults', () => {
    const blank = validateEnv({
      BILLING_PROVIDER_URL: '',
      BILLING_API_KEY: '',
      BILLING_SITE_SHARED_KEY: '',
      BILLING_PRODUCT_FAMILY: '',
      BILLING_CURRENCY: '',
      BILLING_COUNTS_DEBOUNCE_MS: '',
    });
    expect(blank.billingConfigured).toBe(false);
    expect(blank.BILLING_CURRENCY).toBe('USD');
    expect(blank.BILLING_COUNTS_DEBOUNCE_MS).toBe(5000);
    const on = validateEnv({
      BILLING_PROVIDER_URL: 'https://acme.chargify.com',
      BILLING_API_KEY: 'key',
      BILLING_PRODUCT_FAMILY: 'handle:ledgerline',
      BILLING_COUNTS_DEBOUNCE_MS: '250',
    });
    expect(on.billingConfigured).toBe(true);
    expect(on.BILLING_COUNTS_DEBOUNCE_MS).toBe(250);
    expect(validateEnv({ BILLING_PRODUCT_FAMILY: '1234' }).BILLING_PRODUCT_FAMILY).toBe('1234');
    expect(() => validateEnv({ BILLING_PROVIDER_URL: 'https://acme.chargify.com' })).toThrow(
      'BILLING_API_KEY: required with BILLING_PROVIDER_URL',
    );
    expect(() => validateEnv({ BILLING_API_KEY: 'key' })).toThrow(
      'BILLING_PROVIDER_URL: required with BILLING_API_KEY',
    );
    expect(() => validateEnv({ BILLING_PRODUCT_FAMILY: 'ledgerline' })).toThrow(
      /BILLING_PRODUCT_FAMILY must be a product family id or handle:<handle>/,
    );
    expect(() => validateEnv({ BILLING_CURRENCY: 'usd' })).toThrow(/BILLING_CURRENCY/);
    expect(() => validateEnv({ BILLING_COUNTS_DEBOUNCE_MS: 'soon' })).toThrow(
      /BILLING_COUNTS_DEBOUNCE_MS must be an integer from 0 to 3600000/,
    );
  });

  it('requires BILLING_SITE_SHARED_KEY to be at least 32 characters (a guessable key forges webhooks)', () => {
    expect(() => validateEnv({ BILLING_SITE_SHARED_KEY: 'k'.repeat(31) })).toThrow(
      'BILLING_SITE_SHARED_KEY: BILLING_SITE_SHARED_KEY must be at least 32 characters',
    );
    const key = 'k'.repeat(32);
    expect(validateEnv({ BILLING_SITE_SHARED_KEY: key }).BILLING_SITE_SHARED_KEY).toBe(key);
  });

  it('reads REFERRAL_REWARDS into reward cards, naming what is wrong with them', () => {
    expect(validateEnv({}).referralRewards).toEqual([{ value: '25.00', weight: 1 }]);
    const rewards = '[{"value": "10.00", "weight": 3}, {"value": "50", "weight": 1}]';
    expect(validateEnv({ REFERRAL_REWARDS: rewards }).referralRewards).toEqual([
      { value: '10.00', weight: 3 },
      { value: '50', weight: 1 },
    ]);
    expect(() => validateEnv({ REFERRAL_REWARDS: '[{"value": "0.00", "weight": 1}]' })).toThrow(
      'REFERRAL_REWARDS: item 0: value must be a positive decimal string with at most two decimals',
    );
  });

  /** The agent's variables unset, or blank. */
  const agentDefaults = {
    LLM_API_KEY: undefined,
    LLM_BASE_URL: undefined,
    LLM_MODEL: 'claude-sonnet-4-6',
    LLM_ALLOWED_MODELS: [],
    LLM_MAX_TOKENS: 4096,
    LLM_TIMEOUT_MS: 120_000,
    LLM_MAX_RETRIES: 2,
    AGENT_ENABLED: true,
    AGENT_CONFIRM_WRITE_OPERATIONS: true,
    AGENT_MAX_TOOL_CALLS_PER_MINUTE: 30,
    AGENT_MAX_WRITE_OPS_PER_MINUTE: 10,
    AGENT_MAX_DESTRUCTIVE_PER_HOUR: 5,
    AGENT_PENDING_TTL_MINUTES: 60,
    AGENT_MAX_TOOL_ROUNDS: 8,
    ONBOARDING_IP_LIMIT: 10,
  };

  it('turns the agent on only with LLM_API_KEY, unless AGENT_ENABLED is false', () => {
    const env = validateEnv({});
    expect(agentEnabled(env)).toBe(false);
    expect(env).toMatchObject(agentDefaults);
    expect(agentEnabled(validateEnv({ LLM_API_KEY: 'key' }))).toBe(true);
    expect(agentEnabled(validateEnv({ LLM_API_KEY: 'key', AGENT_ENABLED: '' }))).toBe(true);
    expect(agentEnabled(validateEnv({ LLM_API_KEY: 'key', AGENT_ENABLED: 'true' }))).toBe(true);
    expect(agentEnabled(validateEnv({ LLM_API_KEY: 'key', AGENT_ENABLED: 'false' }))).toBe(false);
    expect(agentEnabled(validateEnv({ LLM_API_KEY: '', AGENT_ENABLED: 'true' }))).toBe(false);
    expect(() => validateEnv({ AGENT_ENABLED: 'off' })).toThrow(
      /AGENT_ENABLED must be true or false/,
    );
    expect(
      validateEnv({ AGENT_CONFIRM_WRITE_OPERATIONS: 'false' }).AGENT_CONFIRM_WRITE_OPERATIONS,
    ).toBe(false);
  });

  it('takes the agent settings, blanks meaning the defaults', () => {
    const blanks = Object.fromEntries(Object.keys(agentDefaults).map((name) => [name, '']));
    expect(validateEnv(blanks)).toMatchObject(agentDefaults);
    const set = validateEnv({
      LLM_BASE_URL: 'http://127.0.0.1:8080/anthropic',
      LLM_MODEL: 'claude-haiku-4-5',
      LLM_MAX_TOKENS: '1024',
      LLM_TIMEOUT_MS: '30000',
      LLM_MAX_RETRIES: '0',
    });
    expect(set).toMatchObject({
      LLM_BASE_URL: 'http://127.0.0.1:8080/anthropic',
      LLM_MODEL: 'claude-haiku-4-5',
      LLM_MAX_TOKENS: 1024,
      LLM_TIMEOUT_MS: 30000,
      LLM_MAX_RETRIES: 0,
    });
    expect(() => validateEnv({ LLM_BASE_URL: 'https://api.anthropic.com/v1' })).toThrow(
      /LLM_BASE_URL must not end in \/v1/,
    );
    expect(() => validateEnv({ LLM_BASE_URL: 'api.anthropic.com' })).toThrow(/LLM_BASE_URL/);
    expect(() => validateEnv({ LLM_MAX_TOKENS: '0' })).toThrow(
      /LLM_MAX_TOKENS must be an integer from 1 to 1000000/,
    );
    expect(() => validateEnv({ LLM_MAX_RETRIES: '11' })).toThrow(
      /LLM_MAX_RETRIES must be an integer from 0 to 10/,
    );
    expect(() => validateEnv({ LLM_TIMEOUT_MS: '2m' })).toThrow(
      /LLM_TIMEOUT_MS must be an integer/,
    );
    expect(() => validateEnv({ LLM_MODEL: 'claude sonnet' })).toThrow(
      /LLM_MODEL must be a model id/,
    );
  });

  it('keeps LLM_MODEL within LLM_ALLOWED_MODELS, and requires it set with the list', () => {
    const env = validateEnv({
      LLM_MODEL: 'claude-sonnet-4-6',
      LLM_ALLOWED_MODELS: ' claude-sonnet-4-6 , Claude-Custom-1,',
    });
    expect(env.LLM_ALLOWED_MODELS).toEqual(['claude-sonnet-4-6', 'Claude-Custom-1']);
    for (const unset of [{}, { LLM_MODEL: '' }]) {
      expect(() => validateEnv({ ...unset, LLM_ALLOWED_MODELS: 'claude-sonnet-4-6' })).toThrow(
        'LLM_MODEL: required with LLM_ALLOWED_MODELS (one of claude-sonnet-4-6)',
      );
    }
    expect(() =>
      validateEnv({
        LLM_MODEL: 'claude-opus-4-6',
        LLM_ALLOWED_MODELS: 'claude-sonnet-4-6,claude-haiku-4-5',
      }),
    ).toThrow(
      'LLM_MODEL: must be one of LLM_ALLOWED_MODELS (claude-sonnet-4-6, claude-haiku-4-5) (got "claude-opus-4-6")',
    );
  });

  it('bounds the agent limits; the pending time may be a fraction of a minute', () => {
    expect(validateEnv({ AGENT_PENDING_TTL_MINUTES: '0.5' }).AGENT_PENDING_TTL_MINUTES).toBe(0.5);
    expect(validateEnv({ AGENT_PENDING_TTL_MINUTES: '' }).AGENT_PENDING_TTL_MINUTES).toBe(60);
    for (const bad of ['0', '-1', 'soon', '20000']) {
      expect(() => validateEnv({ AGENT_PENDING_TTL_MINUTES: bad })).toThrow(
        `AGENT_PENDING_TTL_MINUTES must be a number of minutes above 0, at most 10080 (got "`,
      );
    }
    const set = validateEnv({
      AGENT_MAX_TOOL_CALLS_PER_MINUTE: '60',
      AGENT_MAX_WRITE_OPS_PER_MINUTE: '20',
      AGENT_MAX_DESTRUCTIVE_PER_HOUR: '1',
      AGENT_MAX_TOOL_ROUNDS: '3',
      ONBOARDING_IP_LIMIT: '25',
    });
    expect(set).toMatchObject({
      AGENT_MAX_TOOL_CALLS_PER_MINUTE: 60,
      AGENT_MAX_WRITE_OPS_PER_MINUTE: 20,
      AGENT_MAX_DESTRUCTIVE_PER_HOUR: 1,
      AGENT_MAX_TOOL_ROUNDS: 3,
      ONBOARDING_IP_LIMIT: 25,
    });
    for (const name of [
      'AGENT_MAX_TOOL_CALLS_PER_MINUTE',
      'AGENT_MAX_WRITE_OPS_PER_MINUTE',
      'AGENT_MAX_DESTRUCTIVE_PER_HOUR',
      'AGENT_MAX_TOOL_ROUNDS',
      'ONBOARDING_IP_LIMIT',
    ]) {
      expect(() => validateEnv({ [name]: '0' })).toThrow(`${name} must be an integer`);
      expect(() => validateEnv({ [name]: '1.5' })).toThrow(`${name} must be an integer`);
    }
    expect(() => validateEnv({ AGENT_MAX_TOOL_ROUNDS: '101' })).toThrow(
      'AGENT_MAX_TOOL_ROUNDS must be an integer from 1 to 100',
    );
  });
});
