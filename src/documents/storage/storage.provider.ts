import { Provider } from '@nestjs/common';
import { Env } from '../../config';
import { GcsStorageDriver } from './gcs-storage.driver';
import { LocalStorageDriver } from './local-storage.driver';
import { STORAGE, StorageDriver } from './storage-driver';

/** The driver STORAGE_DRIVER names. */
export const storageProvider: Provider = {
  provide: STORAGE,
  inject: [Env],
  useFactory: (env: Env): StorageDriver =>
    env.STORAGE_DRIVER === 'gcs'
      ? new GcsStorageDriver({
          bucket: env.STORAGE_BUCKET!,
          apiEndpoint: env.STORAGE_API_ENDPOINT,
          projectId: env.STORAGE_PROJECT_ID,
          keyFilename: env.STORAGE_CREDENTIALS_FILE,
        })
      : new LocalStorageDriver(env.STORAGE_DIR),
};
