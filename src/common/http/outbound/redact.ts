/** What a secret is replaced with wherever a call is logged or described. */
export const REDACTED = '[redacted]';

/**
 * Names whose values are credentials, as a header, a query parameter or a body field:
 * `Authorization`, `Cookie`, `X-Api-Key`, `access_token`, `client_secret`, `code` (an OAuth
 * authorization code) ...
 */
const SECRET_NAME =
  /authorization|cookie|passw(or)?d|secret|token|api[-_]?key|signature|credential|private[-_]?key|session|^(code|sig|key|auth|otp)$/i;

export type SecretNames = (name: string) => boolean;

/** The usual secret names, and the caller's own (a provider's field names, lower case). */
export function secretNames(extra: readonly string[] = []): SecretNames {
  const own = new Set(extra.map((name) => name.toLowerCase()));
  return (name) => SECRET_NAME.test(name) || own.has(name.toLowerCase());
}

/**
 * The URL as logs may show it: no user info, the values of credential-like query parameters
 * replaced, no fragment; with `secretPath`, no path either (a webhook URL's path is often the
 * receiver's only secret).
 */
export function redactUrl(
  input: string | URL,
  isSecret: SecretNames = secretNames(),
  secretPath = false,
): string {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return '(an unreadable URL)';
  }
  const userInfo = url.username || url.password ? `${REDACTED}@` : '';
  const path = secretPath && url.pathname !== '/' ? `/${REDACTED}` : url.pathname;
  const query = [...url.searchParams]
    .map(([name, value]) => {
      const shown = isSecret(name) ? REDACTED : encodeURIComponent(value);
      return `${encodeURIComponent(name)}=${shown}`;
    })
    .join('&');
  return `${url.protocol}//${userInfo}${url.host}${path}${query ? `?${query}` : ''}`;
}

/** `name: value; ...` with the values of secret headers replaced. */
export function redactHeaders(headers: Headers, isSecret: SecretNames = secretNames()): string {
  return [...headers]
    .map(([name, value]) => `${name}: ${isSecret(name) ? REDACTED : value}`)
    .join('; ');
}

/**
 * `name: value`, `"name": "value"` or `name=value` (JSON, a form, a header line, plain text)
 * with a secret name: its value, a quoted string, a scheme and its credentials (`Bearer ...`)
 * or a bare word (not a NUL: what stands in for a URL shown redacted). Works on a cut JSON text
 * too, which a parser would refuse.
 */
const NAMED_VALUE =
  /("?)([\w.-]+)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"?|(?:Bearer|Basic|Token)\s+[^\s"&,;]+|[^\s"&,;{}[\]\0]+)/gi;

/**
 * A body as logs and errors may show it: the values of secret fields replaced, then `known`
 * (the credentials the request carried: a provider echoing one back repeats it nowhere).
 */
export function redactText(
  text: string,
  isSecret: SecretNames = secretNames(),
  known: readonly string[] = [],
): string {
  let redacted = text.replace(
    NAMED_VALUE,
    (whole, quote: string, name: string, sep: string, value: string) =>
      isSecret(name)
        ? `${quote}${name}${quote}${sep}${value.startsWith('"') ? `"${REDACTED}"` : REDACTED}`
        : whole,
  );
  for (const secret of known) {
    // Shorter values would also hide ordinary words.
    if (secret.length >= 8) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted;
}

/**
 * The credentials a request carries, to be scrubbed from what is logged of its answer: the values
 * of secret headers (without their scheme) and of secret query parameters, and the URL's password.
 */
export function credentialsOf(url: URL, headers: Headers, isSecret: SecretNames): string[] {
  const found: string[] = [];
  for (const [name, value] of headers) {
    if (!isSecret(name)) continue;
    found.push(value);
    const credentials = /^\w+\s+(.+)$/.exec(value)?.[1];
    if (credentials) found.push(credentials);
  }
  for (const [name, value] of url.searchParams) if (isSecret(name)) found.push(value);
  if (url.password) found.push(decodeURIComponent(url.password));
  return found;
}

/** At most `max` characters of a redacted text on one line. */
export function excerpt(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
