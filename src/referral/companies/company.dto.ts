import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { NormalizeEmail, Trim } from '../../common';

/** `POST /v1/referral/company`. */
export class ReferCompanyDto {
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  /** `https://acme.example` or `acme.example`. */
  @Trim()
  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_tld: true },
    { message: 'website must be a web address such as https://acme.example' },
  )
  @MaxLength(2048)
  website?: string;

  /** Whom to contact at the company. */
  @NormalizeEmail()
  @IsEmail({}, { message: 'contactEmail must be an e-mail address' })
  @MaxLength(320)
  contactEmail: string;

  @Trim()
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  note?: string;
}

/** A company the caller referred. */
export class ReferredCompanyView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ type: String, nullable: true })
  website: string | null;
  @ApiProperty()
  contactEmail: string;
  @ApiProperty({ type: String, nullable: true })
  note: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
}
