import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
} from 'class-validator';
import { Trim } from '../../common';
import { DRIVE_ID_PATTERN } from './sync-target';

const DRIVE_ID_MESSAGE = (field: string) =>
  `${field} must be a drive id: 1 to 128 letters, digits, "-" or "_"`;

export class DriveConnectDto {
  /** The organization of the path (another one → 400). */
  @IsUUID()
  organization: string;

  /** The authorization code the provider put on the drive redirect URI. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  code: string;

  /**
   * The `state` the provider sent back with the code (that of `GET .../google-drive/auth-url`);
   * checked when given. Without it the PKCE verifier alone ties the code to this session.
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  state?: string;
}

export class DriveFoldersQuery {
  /** A drive folder id; `root` (the default) is the account's top level. */
  @ApiPropertyOptional({ pattern: DRIVE_ID_PATTERN.source, default: 'root' })
  @IsOptional()
  @Matches(DRIVE_ID_PATTERN, { message: DRIVE_ID_MESSAGE('parentId') })
  parentId?: string;
}

const TARGET_RULES =
  '`/`-separated data-room folder names (outer slashes trimmed; "" or left out: the top level); ' +
  'each name 1 to 255 characters, no `\\`, control characters, `.` or `..`.';
const FILTER_RULES =
  'Comma-separated extensions without dots, whatever their case, each one the storage accepts ' +
  '(STORAGE_ALLOWED_EXTENSIONS); stored lower-cased, sorted, each once (`pdf,txt`). "" or left ' +
  'out: every accepted type.';

export class CreateSyncConfigDto {
  /** The organization of the path (another one → 400). */
  @IsUUID()
  organization: string;

  /** The drive folder to sync (`root`: the whole drive). */
  @ApiPropertyOptional({ pattern: DRIVE_ID_PATTERN.source })
  @Matches(DRIVE_ID_PATTERN, { message: DRIVE_ID_MESSAGE('idpFolderId') })
  idpFolderId: string;

  /** The folder's name, as the folder list showed it (for display). */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  idpFolderName: string;

  @ApiPropertyOptional({ description: TARGET_RULES, default: '', example: 'Board/Minutes' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  targetDataRoomPath?: string;

  /** Whether subfolders are synced too (as data-room folders); false unless said. */
  @IsOptional()
  @IsBoolean()
  syncSubfolders?: boolean;

  @ApiPropertyOptional({ description: FILTER_RULES, default: '', example: 'pdf,docx' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  fileTypeFilter?: string;

  /** Whether the configuration runs (on demand and on the schedule); true unless said. */
  @IsOptional()
  @IsBoolean()
  syncEnabled?: boolean;
}

export class UpdateSyncConfigDto {
  /** Whether the configuration runs (on demand and on the schedule). */
  @IsOptional()
  @IsBoolean()
  syncEnabled?: boolean;

  @ApiPropertyOptional({ description: TARGET_RULES, example: 'Board/Minutes' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  targetDataRoomPath?: string;

  /** Whether subfolders are synced too. */
  @IsOptional()
  @IsBoolean()
  syncSubfolders?: boolean;

  @ApiPropertyOptional({ description: FILTER_RULES, example: 'pdf,docx' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  fileTypeFilter?: string;
}

export class SyncHistoryQuery {
  /** Only this configuration's runs (one of this organization's, deleted ones included). */
  @IsOptional()
  @IsUUID()
  configurationId?: string;
}
