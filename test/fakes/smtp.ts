import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The body as received (headers removed, quoted-printable decoded). */
  text: string;
  raw: string;
}

interface Waiter {
  to: string;
  resolve: (mail: ReceivedMail) => void;
}

/**
 * A real SMTP server on 127.0.0.1 (a free port) that keeps every mail it receives. Point the app
 * at it with `env: { SMTP_URL: smtp.url }`; `nextMail(address)` waits for the next mail to it.
 */
export class FakeSmtp {
  readonly mails: ReceivedMail[] = [];
  private readonly waiters: Waiter[] = [];
  /** Mails not yet handed out by nextMail(), per recipient. */
  private readonly unread = new Map<string, ReceivedMail[]>();
  private server?: SMTPServer;
  url = '';

  static async start(): Promise<FakeSmtp> {
    const fake = new FakeSmtp();
    await fake.listen();
    return fake;
  }

  private listen(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.receive({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: header(raw, 'subject'),
            text: body(raw),
            raw,
          });
          callback();
        });
      },
    });
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => {
        const { port } = this.server!.server.address() as AddressInfo;
        this.url = `smtp://127.0.0.1:${port}`;
        resolve();
      });
    });
  }

  private receive(mail: ReceivedMail) {
    this.mails.push(mail);
    for (const to of mail.to) {
      const waiter = this.waiters.findIndex((w) => w.to === to);
      if (waiter >= 0) {
        this.waiters.splice(waiter, 1)[0].resolve(mail);
      } else {
        this.unread.set(to, [...(this.unread.get(to) ?? []), mail]);
      }
    }
  }

  /** The oldest mail to `address` not yet returned, waiting for it up to `timeoutMs`. */
  nextMail(address: string, timeoutMs = 5000): Promise<ReceivedMail> {
    const to = address.trim().toLowerCase();
    const queued = this.unread.get(to);
    if (queued?.length) return Promise.resolve(queued.shift()!);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { to, resolve: (m) => (clearTimeout(timer), resolve(m)) };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Whether mails to `address` are waiting unread. */
  hasUnread(address: string): boolean {
    return Boolean(this.unread.get(address.trim().toLowerCase())?.length);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** The 6-digit code of a verification mail. */
export const codeOf = (mail: ReceivedMail) => {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
};

/** The temporary password of a password-reset mail. */
export const temporaryPasswordOf = (mail: ReceivedMail) => {
  const match = /temporary password is: (\S+)/.exec(mail.text);
  if (!match) throw new Error(`no temporary password in mail: ${mail.text}`);
  return match[1];
};

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

function body(raw: string): string {
  const text = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  return /content-transfer-encoding:\s*quoted-printable/i.test(raw)
    ? text
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
}
