import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { DateField, QueryFlag } from '../../common';

export class CapTableExportQuery {
  /** `csv` (default) or `json`: the same rows as a JSON array of objects. */
  @ApiPropertyOptional({ enum: ['csv', 'json'], default: 'csv' })
  @IsOptional()
  @IsIn(['csv', 'json'])
  format?: 'csv' | 'json';

  /** The cap table as it stood on this date, replayed from the log; default: as recorded now. */
  @DateField({ optional: true })
  asOf?: string;
}

export class ImportTemplateQuery {
  /** A file this organization imported earlier: downloaded instead of the template. */
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  file?: string;
}

export class ImportQuery {
  /** Check the file and say what it would import, changing nothing (200 instead of 201). */
  @QueryFlag()
  dryRun?: boolean;
}
