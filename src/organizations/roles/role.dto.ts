import { Trim } from '../../common';
import { ArrayUnique, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class RoleDto {
  @Trim()
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
