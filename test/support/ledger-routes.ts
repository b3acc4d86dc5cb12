import type { Agent } from 'supertest';
import type { DataSource } from 'typeorm';
import { COMMANDS } from '../../src/cap-table/ledger/commands';
import type { TransactionType } from '../../src/cap-table/ledger/transaction-types';
import { TRANSACTIONS } from '../../src/cap-table/ledger/transactions';
import type {
  CommandRoute,
  TransactionDefinition,
} from '../../src/cap-table/ledger/transactions/definition';
import { answered } from './every-transaction';

/** A route the ledger's registry declares: its type (or command) and the event it records. */
export interface LedgerRoute {
  name: string;
  event?: { type: string; public: boolean };

  route: CommandRoute<any, any>;
}

/** Every route of the registry's definitions and commands. */
export const ledgerRoutes = (): LedgerRoute[] => [
  ...(Object.keys(TRANSACTIONS) as TransactionType[]).flatMap((type) => {
    const d = TRANSACTIONS[type] as TransactionDefinition<TransactionType>;
    return d.http ? [{ name: type, event: d.event, route: d.http }] : [];
  }),
  ...COMMANDS.flatMap((c) => (c.http ? [{ name: c.name, event: c.event, route: c.http }] : [])),
];

/** An active record of each kind a route's path may name. */
const ACTIVE: Record<string, string> = {
  shareholding: "SELECT id FROM shareholding WHERE organization_id = $1 AND status = 'active'",
  holding: "SELECT id FROM holding WHERE organization_id = $1 AND status = 'active'",
  security: 'SELECT id FROM security WHERE organization_id = $1 AND deleted_at IS NULL',
  member: "SELECT id FROM member WHERE organization_id = $1 AND status <> 'removed'",
};

/**
 * Writes through a registry route with its declared example, on the newest active record of the
 * kind its path names in `org`: how a new type's route is exercised by the tests that must cover
 * every type (freshness, every event) without a step of their own. Answers the route's body and
 * the record its path named (the event's resource).
 */
export async function writeByExample(
  db: DataSource,
  agent: Agent,
  org: string,
  { route }: LedgerRoute,
): Promise<{ body: Record<string, unknown>; record?: string }> {
  let path = route.path.replace(':organization', org);
  const record = route.target?.record;
  let id: string | undefined;
  if (record) {
    const sql = ACTIVE[record];
    if (!sql) throw new Error(`no active ${record} to write a route's example on`);
    const [row] = (await db.query(`${sql} ORDER BY created DESC LIMIT 1`, [org])) as {
      id: string;
    }[];
    if (!row) throw new Error(`no active ${record} in ${org}`);
    id = row.id;
    path = path.replace(/:\w+/, id);
  }
  const method = route.method.toLowerCase() as 'post' | 'put' | 'patch';
  const body = await answered(agent[method](`/v1/${path}`).send(route.example), route.status);
  return { body, record: id };
}
