import { normalizeEmail } from '../../common';

/** The fields of a People API `Person` the contacts are read from. */
export interface Person {
  names?: { displayName?: string; metadata?: { primary?: boolean } }[];
  emailAddresses?: { value?: string; metadata?: { primary?: boolean } }[];
}

/** A page of `GET v1/people/me/connections`. */
export interface ConnectionsPage {
  connections?: Person[];
  nextPageToken?: string;
}

export interface Contact {
  name: string | null;
  email: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_EMAIL = 320;

/** The person's primary display name, else its first; null when it has none. */
function nameOf(person: Person): string | null {
  const names = person.names ?? [];
  const name = (names.find((n) => n.metadata?.primary) ?? names[0])?.displayName?.trim();
  return name || null;
}

/**
 * One contact per e-mail address of the people (a person with two addresses gives two), people
 * without an address left out. Addresses are in the app's one spelling (`normalizeEmail`: lower
 * case), so an address met again in another case is the same contact: its first name stays (or
 * the first one given, when the first had none). Sorted by name (those without one last), then
 * e-mail.
 */
export function contactsOf(people: Person[]): Contact[] {
  const byEmail = new Map<string, Contact>();
  for (const person of people) {
    const name = nameOf(person);
    for (const address of person.emailAddresses ?? []) {
      const email = normalizeEmail(address.value ?? '');
      if (email.length > MAX_EMAIL || !EMAIL.test(email)) continue;
      const seen = byEmail.get(email);
      if (!seen) byEmail.set(email, { name, email });
      else seen.name ??= name;
    }
  }
  return [...byEmail.values()].sort(
    (a, b) =>
      (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) ||
      (a.name ?? '').localeCompare(b.name ?? '') ||
      a.email.localeCompare(b.email),
  );
}
