import { Client } from 'pg';

/** The same server as `url`, but its maintenance database `postgres`. */
export function adminUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl(url) });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
