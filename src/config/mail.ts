import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import { IsMailbox } from './mailbox';
import { configSlice } from './slice';
import { emptyToUndefined } from './variable-rules';

/** Outgoing mail. */
export class MailConfig {
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** `address@example.com` or `Display Name <address@example.com>`. */
  @IsMailbox()
  MAIL_FROM = 'Ledgerline <no-reply@ledgerline.local>';
}

export const mailSlice = configSlice({ name: 'mail', schema: MailConfig });
