import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Env, validateEnv } from './env.schema';

const root = join(__dirname, '..', '..');
const declared = Object.keys(new Env());

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

  it('is mirrored by .env.example and the README configuration table', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const inExample = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(inExample.sort()).toEqual([...declared].sort());
    const missingInReadme = declared.filter((name) => !readme.includes(`\`${name}\``));
    expect(missingInReadme).toEqual([]);
  });
});
