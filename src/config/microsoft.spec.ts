import { validateEnv } from './env.schema';

const ALL = {
  MICROSOFT_TENANT_ID: 'tenant',
  MICROSOFT_CLIENT_ID: 'client',
  MICROSOFT_CLIENT_SECRET: 'secret',
  MICROSOFT_DRIVE_ID: 'drive',
};

describe('the microsoft slice', () => {
  it('configures the suite store with all four variables, and not with none', () => {
    expect(validateEnv({}).suiteConfigured).toBe(false);
    const env = validateEnv({
      ...ALL,
      MICROSOFT_GRAPH_URL: 'http://127.0.0.1:9/',
      MICROSOFT_ROOT_FOLDER: '/Apps/Ledgerline/',
    });
    expect(env.suiteConfigured).toBe(true);
    expect(env.MICROSOFT_GRAPH_URL).toBe('http://127.0.0.1:9');
    expect(env.MICROSOFT_ROOT_FOLDER).toBe('Apps/Ledgerline');
    expect(env.MICROSOFT_LOGIN_URL).toBe('https://login.microsoftonline.com');
    // Blank means the default (tests set '' to mean "not given").
    expect(validateEnv({ MICROSOFT_GRAPH_URL: '', MICROSOFT_ROOT_FOLDER: '' })).toMatchObject({
      MICROSOFT_GRAPH_URL: 'https://graph.microsoft.com',
      MICROSOFT_ROOT_FOLDER: 'Ledgerline',
    });
  });

  it('stops start-up naming what is missing when only some are set, or a URL is not one', () => {
    expect(() => validateEnv({ MICROSOFT_TENANT_ID: 't', MICROSOFT_DRIVE_ID: 'd' })).toThrow(
      /MICROSOFT_CLIENT_ID: required with MICROSOFT_TENANT_ID, MICROSOFT_DRIVE_ID[\s\S]*MICROSOFT_CLIENT_SECRET: required/,
    );
    expect(() => validateEnv({ ...ALL, MICROSOFT_LOGIN_URL: 'login' })).toThrow(
      /MICROSOFT_LOGIN_URL must be an http\(s\) URL/,
    );
    expect(() => validateEnv({ ...ALL, MICROSOFT_ROOT_FOLDER: 'a:b' })).toThrow(
      /MICROSOFT_ROOT_FOLDER/,
    );
  });
});
