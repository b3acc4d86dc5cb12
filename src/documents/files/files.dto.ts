import { IsOptional, IsUUID } from 'class-validator';

/** The form fields of an organization file upload (besides the file, in the field `file`). */
export class OrganizationFileFields {
  /** A plan of the organization the file documents (the plan document). */
  @IsOptional()
  @IsUUID()
  plan?: string;

  /** A holding of the organization the file documents (a grant agreement). */
  @IsOptional()
  @IsUUID()
  holding?: string;
}
