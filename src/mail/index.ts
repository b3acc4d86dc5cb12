export { MailModule } from './mail.module';
export { MailService } from './mail.service';
export type { OutgoingMail } from './mail.service';
