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

  it('names every bad variable in one message', () => {
    expect(() =>
      validateEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', NODE_ENV: 'staging' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
    expect(() => validateEnv({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
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

  it('is mirrored by .env.example and the README configuration table', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const inExample = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(inExample.sort()).toEqual([...declared].sort());
    const missingInReadme = declared.filter((name) => !readme.includes(`\`${name}\``));
    expect(missingInReadme).toEqual([]);
  });
});
