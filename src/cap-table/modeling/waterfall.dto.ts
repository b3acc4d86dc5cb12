import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { DateField, DecimalField, QueryFlag } from '../../common';

export class WaterfallStructureQuery {
  /** The cap table as it stood on this date (default today); options vest to it, notes accrue to it. */
  @DateField({ optional: true })
  asOf?: string;

  /** Paid before anyone else: fees of the sale. Default 0. */
  @DecimalField({ optional: true, nullable: false, example: '250000' })
  transactionExpenses?: string;

  /** Every outstanding option and warrant takes part as if fully vested. Default false. */
  @QueryFlag()
  treatUnvestedAsAccelerated?: boolean;
}

export class WaterfallDto {
  /** What the buyer pays for the company. */
  @DecimalField({ example: '50000000' })
  exitValue: string;

  @DateField({ optional: true })
  asOf?: string;

  @DecimalField({ optional: true, nullable: false, example: '250000' })
  transactionExpenses?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  treatUnvestedAsAccelerated?: boolean;
}
