import { Transform } from 'class-transformer';
import { ArrayUnique, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class RoleDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name: string;

  /** Permission names of spec section 4 (see the README's permission table). */
  @IsArray()
  @ArrayUnique()
  @IsString({ each: true })
  permissions: string[];
}
