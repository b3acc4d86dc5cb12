import { randomBytes, randomInt } from 'node:crypto';

/**
 * The messaging-server username for an e-mail address: its local part in lower case, characters
 * other than `[a-z0-9._-]` dropped, `u` in front unless it starts with a letter, padded with `0`
 * to 3 characters, cut to 64 (the server's rules: 3–64 characters, starting with a letter).
 */
export function usernameFor(email: string): string {
  const at = email.lastIndexOf('@');
  let name = (at > 0 ? email.slice(0, at) : email).toLowerCase().replace(/[^a-z0-9._-]/g, '');
  if (!/^[a-z]/.test(name)) name = `u${name}`;
  return name.padEnd(3, '0').slice(0, 64);
}

/** The name to try after `base` was taken: `<base cut to 59>-<4 random hex>`. */
export const retryUsername = (base: string) =>
  `${base.slice(0, 59)}-${randomBytes(2).toString('hex')}`;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const SYMBOLS = '!#$%&*+-.:=?@^_~';
const ALL = LOWER + UPPER + DIGITS + SYMBOLS;

/**
 * A random 40-character password with every character class (passes any password policy the
 * server may have, well under bcrypt's 72 bytes). Never stored: the user signs in with tokens.
 */
export function randomPassword(): string {
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < 40) chars.push(pick(ALL));
  // Fisher–Yates, so the classes are not always in the first four places.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/**
 * A new team's name: `org-` and 32 random hex characters. Chosen and stored before the team is
 * made, so that no one can make it first: a name derived from the organization's id could be
 * taken by anyone on the server, and the team then adopted with its maker in it.
 */
export const newTeamName = () => `org-${randomBytes(16).toString('hex')}`;

/**
 * The name of a team's private channel (the agent's replies, for members who may read the cap
 * table): random for the same reason, as team members may make channels of their own.
 */
export const newPrivateChannelName = () => `cap-table-${randomBytes(16).toString('hex')}`;
