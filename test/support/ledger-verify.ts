import { LedgerVerifier } from '../../src/cap-table';
import { TestApp } from './app';

/**
 * `ledger:verify` run in the test's own process: the same replay of the log against the tables
 * and the moves,
 * with the CLI's exit code, without starting the CLI (a second process compiling the service,
 * several seconds each). The CLI itself is tested in ledger-integrity.e2e-spec.ts.
 */
export async function verifyLedger(t: TestApp, organizationId: string) {
  const verification = await t.get<LedgerVerifier>(LedgerVerifier).verify(organizationId);
  const broken =
    verification.differences.length > 0 ||
    verification.moveDifferences.length > 0 ||
    verification.replayError !== undefined;
  return { code: broken ? 1 : 0, ...verification };
}
