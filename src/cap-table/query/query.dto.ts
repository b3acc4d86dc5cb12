import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

export const MAX_QUERIES = 20;

export class ReadQuery {
  /** The caller's name for this read; the key of its result. */
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,100}$/, {
    message: 'id must be 1 to 100 letters, digits, dots, dashes or underscores',
  })
  id: string;

  /** A GET path of this API, with its query string: `/v1/organization/<id>/shareholding?limit=10`. */
  @IsString()
  @MaxLength(2000)
  @Matches(/^\/v1\/[^\s#]*$/, { message: 'path must be a path of this API, starting with /v1/' })
  path: string;
}

export class QueryDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_QUERIES)
  @ValidateNested({ each: true })
  @Type(() => ReadQuery)
  queries: ReadQuery[];
}
