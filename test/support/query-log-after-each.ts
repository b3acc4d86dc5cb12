import { takeForeignStatements } from './query-log';

/**
 * Every e2e and service test fails when the app ran SQL naming a table of another module than
 * the one whose code sent it (see query-log.ts). Statements of `beforeAll` count in the first
 * test; those of `afterAll` fail the file.
 */
async function assertOwnTables() {
  const found = await takeForeignStatements();
  if (found.length) {
    throw new Error(
      `SQL naming another module's table (ask its owner through its index.ts, or embed its ownedSql):\n  ${found.join('\n  ')}`,
    );
  }
}

afterEach(assertOwnTables);
afterAll(assertOwnTables);
