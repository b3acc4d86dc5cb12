/** The few HTTP calls the bench makes itself (the load is autocannon's). */

export async function call(
  url: string,
  method: string,
  path: string,
  cookie: string,
  body: object,
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ id: string } & Record<string, unknown>>;
}

export async function fetchText(url: string, cookie: string) {
  const res = await fetch(url, { headers: { Cookie: cookie } });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return { body: await res.text(), etag: res.headers.get('etag') ?? '' };
}
