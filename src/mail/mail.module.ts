import { Module } from '@nestjs/common';
import { MailService } from './mail.service';

/** Outbound e-mail (one client class, SMTP). */
@Module({
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
