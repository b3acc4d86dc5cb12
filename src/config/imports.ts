import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { configSlice } from './slice';
import { integer, toInt } from './variable-rules';

/** Imports (OCF packages and cap table CSV files): the work one upload may ask for. */
export class ImportsConfig {
  /** Inflated size of one entry of an OCF zip, in MiB (a zip bomb stops here). */
  @Transform(toInt)
  @IsInt(integer(1, 1024))
  @Min(1, integer(1, 1024))
  @Max(1024, integer(1, 1024))
  OCF_IMPORT_MAX_ENTRY_MB = 8;

  /** Inflated size of all entries of an OCF zip together, in MiB. */
  @Transform(toInt)
  @IsInt(integer(1, 4096))
  @Min(1, integer(1, 4096))
  @Max(4096, integer(1, 4096))
  OCF_IMPORT_MAX_TOTAL_MB = 32;

  /**
   * Objects of one OCF file (the entries of its top-level lists: a file's `items`), counted before
   * the file is parsed. 100,000: the smallest OCF objects take about 90 bytes, so an 8 MiB file of
   * real objects holds fewer; a file padded with `{}` holds millions.
   */
  @Transform(toInt)
  @IsInt(integer(1, 10_000_000))
  @Min(1, integer(1, 10_000_000))
  @Max(10_000_000, integer(1, 10_000_000))
  OCF_IMPORT_MAX_OBJECTS_PER_FILE = 100_000;

  /** Rows of a cap table CSV import (the header aside); more answer 413. */
  @Transform(toInt)
  @IsInt(integer(1, 10_000_000))
  @Min(1, integer(1, 10_000_000))
  @Max(10_000_000, integer(1, 10_000_000))
  CSV_IMPORT_MAX_ROWS = 200_000;
}

export const importsSlice = configSlice({ name: 'imports', schema: ImportsConfig });
