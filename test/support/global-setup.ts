import { join } from 'node:path';
import { tableOwnership } from '../../scripts/sql-tables';
import { createMigratedTemplate, testPostgresServer } from './postgres';

/**
 * Runs once per `jest` run: finds PostgreSQL and migrates the template database; works out who
 * owns which table for the query log (query-log.ts).
 */
export default async function globalSetup() {
  process.env.TEST_TABLE_OWNERS = JSON.stringify(
    Object.fromEntries(tableOwnership(join(__dirname, '..', '..')).owners),
  );
  const server = await testPostgresServer();
  const template = `ledgerline_test_template_${process.pid}`;
  await createMigratedTemplate(server.url, template);
  process.env.TEST_PG_SERVER_URL = server.url;
  process.env.TEST_PG_TEMPLATE = template;
  (globalThis as Record<string, unknown>).__LEDGERLINE_PG_STOP__ = server.stop;
}
