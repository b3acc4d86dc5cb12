import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { emptyToUndefined, integer, oneOf, toInt, toList, urlOpts } from './variable-rules';

/** Where uploaded documents and files live, and what one upload may be. */
export class StorageConfig {
  /** `local`: files under STORAGE_DIR; `gcs`: a Cloud Storage bucket. */
  @IsIn(['local', 'gcs'], oneOf(['local', 'gcs']))
  STORAGE_DRIVER: 'local' | 'gcs' = 'local';

  @IsString()
  STORAGE_DIR = './.data/storage';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, {
    message: 'STORAGE_BUCKET must be a Cloud Storage bucket name',
  })
  STORAGE_BUCKET?: string;

  /** Another Cloud Storage endpoint (an emulator); requests to it carry no Google credentials. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl(urlOpts, { message: 'STORAGE_API_ENDPOINT must be an http(s) URL' })
  STORAGE_API_ENDPOINT?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  STORAGE_PROJECT_ID?: string;

  /** A service-account key file; without it the client uses the application default credentials. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  STORAGE_CREDENTIALS_FILE?: string;

  @Transform(toInt)
  @IsInt(integer(1, 1024))
  @Min(1, integer(1, 1024))
  @Max(1024, integer(1, 1024))
  STORAGE_UPLOAD_SIZE_LIMIT_MB = 10;

  @Transform(toInt)
  @IsInt(integer(1, 1024))
  @Min(1, integer(1, 1024))
  @Max(1024, integer(1, 1024))
  DATA_ROOM_UPLOAD_SIZE_LIMIT_MB = 10;

  /**
   * Uploads one user may have in progress at once, on all instances together (each may hold its
   * files in memory up to the size limit); one more answers 429 `tooManyUploads`.
   */
  @Transform(toInt)
  @IsInt(integer(1, 100))
  @Min(1, integer(1, 100))
  @Max(100, integer(1, 100))
  UPLOAD_CONCURRENCY_PER_USER = 3;

  /** File extensions an upload may have (lower case, without the dot). */
  @Transform(toList)
  @IsString({ each: true })
  STORAGE_ALLOWED_EXTENSIONS: string[] = [
    'pdf',
    'png',
    'jpg',
    'jpeg',
    'gif',
    'webp',
    'csv',
    'xlsx',
    'docx',
    'doc',
    'txt',
    'md',
    'zip',
  ];
}

export const storageSlice = configSlice({
  name: 'storage',
  schema: StorageConfig,
  check: (env) =>
    env.STORAGE_DRIVER === 'gcs' && !env.STORAGE_BUCKET
      ? ['  STORAGE_BUCKET: required when STORAGE_DRIVER=gcs (a Cloud Storage bucket name)']
      : [],
});
