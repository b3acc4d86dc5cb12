import { isEmail, registerDecorator } from 'class-validator';
import addressparser from 'nodemailer/lib/addressparser';

export interface Mailbox {
  name: string;
  address: string;
}

/**
 * Parses one mailbox as written in a From header: `address@example.com` or
 * `Display Name <address@example.com>` (nodemailer's RFC 5322 address parser). Null unless it is
 * exactly one mailbox with a valid address.
 */
export function parseMailbox(value: unknown): Mailbox | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const parsed = addressparser(value.trim());
  if (parsed.length !== 1) return null;
  const [one] = parsed;
  if (!('address' in one) || !one.address || !isEmail(one.address)) return null;
  return { name: one.name ?? '', address: one.address };
}

export function IsMailbox() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isMailbox',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => parseMailbox(value) !== null,
        defaultMessage: (args) =>
          `${args?.property} must be an e-mail address or "Name <address@example.com>" (got "${String(args?.value)}")`,
      },
    });
}
