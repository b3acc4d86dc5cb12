import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { Env, isProduction, Mailbox, parseMailbox } from '../config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail with nodemailer over SMTP_URL, from MAIL_FROM (a bare address or
 * `Display Name <address>`; the name reaches the From header).
 *
 * Without SMTP_URL:
 * - outside production the whole mail is written to the log (codes included: a developer needs
 *   them, and nothing there is real) on a line starting `mail to <address>:`;
 * - in production the service still starts (the compose file allows an empty SMTP_URL) but logs an
 *   error at start-up and for every mail it cannot send, naming only the recipient and subject,
 *   never the body, which carries codes and temporary passwords.
 */
@Injectable()
export class MailService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MailService.name);
  private readonly transport?: Transporter;
  private readonly from: Mailbox;

  constructor(private readonly env: Env) {
    if (env.SMTP_URL) this.transport = createTransport(env.SMTP_URL);
    // Validated at start-up (validateEnv), so it parses.
    this.from = parseMailbox(env.MAIL_FROM)!;
  }

  onModuleInit() {
    if (!this.transport && isProduction(this.env)) {
      this.logger.error(
        'SMTP_URL is not set: e-mails (verification codes, passwords) are NOT sent',
      );
    }
  }

  onModuleDestroy() {
    this.transport?.close();
  }

  async send(mail: OutgoingMail): Promise<void> {
    if (!this.transport) {
      if (isProduction(this.env)) {
        this.logger.error(`mail to ${mail.to} ("${mail.subject}") dropped: SMTP_URL is not set`);
      } else {
        this.logger.log(`mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
      }
      return;
    }
    const message: Mail.Options = { from: this.from, ...mail };
    await this.transport.sendMail(message);
  }
}
