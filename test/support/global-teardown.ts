import { dropDatabase } from './postgres';

export default async function globalTeardown() {
  const url = process.env.TEST_PG_SERVER_URL;
  const template = process.env.TEST_PG_TEMPLATE;
  if (url && template) await dropDatabase(url, template);
  const stop = (globalThis as Record<string, unknown>).__LEDGERLINE_PG_STOP__ as
    (() => Promise<void>) | undefined;
  await stop?.();
}
