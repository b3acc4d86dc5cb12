import { Env, validateEnv } from '../../config';
import { GcsStorageDriver } from './gcs-storage.driver';
import { LocalStorageDriver } from './local-storage.driver';
import { StorageDriver } from './storage-driver';
import { storageProvider } from './storage.provider';

/** The driver the configuration selects, and the configuration rules of storage. */
describe('storage configuration', () => {
  const driverFor = (raw: Record<string, string>): StorageDriver =>
    (storageProvider as { useFactory: (env: Env) => StorageDriver }).useFactory(validateEnv(raw));

  it('uses the local driver by default, under ./.data/storage', () => {
    const env = validateEnv({});
    expect(env.STORAGE_DRIVER).toBe('local');
    expect(env.STORAGE_DIR).toBe('./.data/storage');
    expect(driverFor({})).toBeInstanceOf(LocalStorageDriver);
  });

  it('uses the Cloud Storage driver with STORAGE_DRIVER=gcs and a bucket', () => {
    const driver = driverFor({
      STORAGE_DRIVER: 'gcs',
      STORAGE_BUCKET: 'ledgerline-files',
      STORAGE_API_ENDPOINT: 'http://127.0.0.1:4443',
    });
    expect(driver).toBeInstanceOf(GcsStorageDriver);
    expect(driver.name).toBe('gcs');
  });

  it('stops start-up when STORAGE_DRIVER=gcs has no STORAGE_BUCKET, naming the variable', () => {
    expect(() => validateEnv({ STORAGE_DRIVER: 'gcs' })).toThrow(
      /STORAGE_BUCKET: required when STORAGE_DRIVER=gcs/,
    );
    expect(() => validateEnv({ STORAGE_DRIVER: 'gcs', STORAGE_BUCKET: '' })).toThrow(
      /STORAGE_BUCKET/,
    );
  });

  it('refuses an unknown driver, a bucket name Cloud Storage would refuse and a bad endpoint', () => {
    expect(() => validateEnv({ STORAGE_DRIVER: 's3' })).toThrow(
      /STORAGE_DRIVER must be one of local, gcs \(got "s3"\)/,
    );
    expect(() => validateEnv({ STORAGE_DRIVER: 'gcs', STORAGE_BUCKET: 'Bad_Bucket!' })).toThrow(
      /STORAGE_BUCKET must be a Cloud Storage bucket name/,
    );
    expect(() => validateEnv({ STORAGE_API_ENDPOINT: 'localhost:4443' })).toThrow(
      /STORAGE_API_ENDPOINT must be an http\(s\) URL/,
    );
  });

  it('reads the upload limits and the allowed extensions (lower-cased list)', () => {
    const env = validateEnv({
      STORAGE_UPLOAD_SIZE_LIMIT_MB: '25',
      DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '5',
      STORAGE_ALLOWED_EXTENSIONS: 'PDF, png,,csv',
    });
    expect(env.STORAGE_UPLOAD_SIZE_LIMIT_MB).toBe(25);
    expect(env.DATA_ROOM_UPLOAD_SIZE_LIMIT_MB).toBe(5);
    expect(env.STORAGE_ALLOWED_EXTENSIONS).toEqual(['pdf', 'png', 'csv']);
    expect(validateEnv({}).STORAGE_UPLOAD_SIZE_LIMIT_MB).toBe(10);
    expect(() => validateEnv({ STORAGE_UPLOAD_SIZE_LIMIT_MB: '0' })).toThrow(
      /STORAGE_UPLOAD_SIZE_LIMIT_MB must be an integer from 1 to 1024/,
    );
  });
});
