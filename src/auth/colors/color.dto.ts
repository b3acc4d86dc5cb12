import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';

export class PutColorDto {
  @ApiProperty({ format: 'uuid', description: 'Must equal `:user`' })
  @IsUUID()
  user: string;

  @ApiProperty({ description: 'Must equal `:target`' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  target: string;

  @ApiProperty({ example: '#1A2B3C' })
  @IsString()
  @Matches(/^#[0-9A-Fa-f]{6}$/, { message: 'color must be a hex color #RRGGBB' })
  color: string;
}

/** The color preference resource of spec section 2, answered as it is (not wrapped). */
export class ColorView {
  @ApiProperty({ format: 'uuid' }) user: string;
  @ApiProperty({ description: 'Identifier of an entity or UI element' }) target: string;
  @ApiProperty({ example: '#1A2B3C', description: 'Hex color `#RRGGBB`' }) color: string;
}
