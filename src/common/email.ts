/**
 * The one spelling of an e-mail address we store and compare: surrounding white space removed,
 * Unicode normalised (NFC, so a composed and a decomposed "é" are one address) and lower-cased.
 * Lower-casing the local part is a deliberate choice: almost every provider treats it
 * case-insensitively, and two accounts differing only in case would be a phishing vector.
 */
export const normalizeEmail = (email: string): string =>
  email.normalize('NFC').trim().toLowerCase();
