import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, ValidateIf } from 'class-validator';
import { QueryFlag, Trim } from '../../common';
import { IsEntryName } from './entry-name';

/** `?parentFolder=root`: the top level of the data room. */
export const TOP_LEVEL = 'root';

const NAME_RULES =
  'Trimmed; 1 to 255 characters; no "/", "\\" or control characters; unique in its folder whatever its case';

export class ListDocumentsQuery {
  /**
   * Only the entries directly in this folder (`root` for the top level); without it, the whole
   * tree, flat, each entry naming its parent folder.
   */
  @ApiPropertyOptional({ description: 'A folder id, or `root` for the top level' })
  @IsOptional()
  @IsString()
  @ValidateIf((q: ListDocumentsQuery) => q.parentFolder !== TOP_LEVEL)
  @IsUUID('all', { message: 'parentFolder must be a folder id or "root"' })
  parentFolder?: string;
}

/** The form fields of a data room upload (besides the files, in the field `file`). */
export class DataRoomUploadFields {
  /** The folder to put the files in; left out for the top level. */
  @IsOptional()
  @IsUUID()
  parentFolder?: string;
}

export class CreateFolderDto {
  @ApiProperty({ description: NAME_RULES, example: 'Board minutes' })
  @Trim()
  @IsEntryName()
  name: string;

  /** The folder to create it in; null (or left out) for the top level. */
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @IsOptional()
  @IsUUID()
  parentFolder?: string | null;
}

export class MoveEntryDto {
  @ApiProperty({
    description: `The new name (the current one to move only). ${NAME_RULES}. A file keeps its type: the new name’s extension must give the same content type.`,
    example: 'Minutes 2025.pdf',
  })
  @Trim()
  @IsEntryName()
  name: string;

  /** The destination folder; null for the top level; left out to stay in the current folder. */
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @IsOptional()
  @IsUUID()
  parentFolder?: string | null;
}

export class DeleteEntryQuery {
  /** With a non-empty folder: delete everything in it too (otherwise 409). */
  @QueryFlag()
  recursive?: boolean;
}
