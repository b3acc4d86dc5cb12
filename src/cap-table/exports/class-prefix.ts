/** What a class's certificate prefix may be (as `POST .../security` accepts it). */
const PREFIX = /^[A-Za-z0-9._-]{1,20}$/;

/**
 * The certificate prefix of a class an import creates: the prefix of the certificate number its
 * first row carries (`CS-` of `CS-12`), so that a cap table exported and imported again numbers
 * its certificates as they were; else the initials of its name (`Series A Preferred` → `SAP-`).
 * Never one of `taken` (the organization's classes' and the import's other new ones): a number
 * is added to the initials until it is free (`SAP2-`).
 */
export function classPrefix(name: string, certificateNumber: string | null, taken: Set<string>) {
  const fromCertificate = /^(.*?)\d+$/.exec(certificateNumber ?? '')?.[1];
  if (fromCertificate && PREFIX.test(fromCertificate) && !taken.has(fromCertificate)) {
    return fromCertificate;
  }
  const initials =
    name
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((word) => word[0].toUpperCase())
      .join('')
      .slice(0, 12) || 'S';
  if (!taken.has(`${initials}-`)) return `${initials}-`;
  for (let n = 2; ; n++) {
    if (!taken.has(`${initials}${n}-`)) return `${initials}${n}-`;
  }
}
