import { IsOptional, IsUUID } from 'class-validator';

/** `POST .../google-drive/sync`. */
export class DriveSyncDto {
  /** The organization of the path (another → 400). */
  @IsUUID()
  organization: string;

  /** One of the organization's configurations (even disabled); left out: every enabled one. */
  @IsOptional()
  @IsUUID()
  configurationId?: string;
}
