/**
 * An in-process request made on someone's behalf (an agent tool) may be pinned to one
 * organization: the access guard then refuses (404) a route whose record or path resolves to any
 * other, even one the caller could read there. The pin is a property of the request object, set
 * only by the in-process dispatcher: no header of an outside request can set or lift it.
 */
const PIN = Symbol('pinnedOrganization');

type Pinnable = { [PIN]?: string };

export function pinOrganization(req: object, organizationId: string): void {
  (req as Pinnable)[PIN] = organizationId;
}

export function pinnedOrganization(req: object): string | undefined {
  return (req as Pinnable)[PIN];
}
