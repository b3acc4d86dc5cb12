import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

/** Credit granted straight into the ledger (as a revealed card would), for transfer tests. */
export async function fund(ds: DataSource, entityId: string, amount: string): Promise<void> {
  await ds.query(
    `INSERT INTO credit_entry (id, entity_id, kind, amount, currency, movement_id)
     VALUES ($1, $2, 'grant', $3, 'USD', $4)`,
    [randomUUID(), entityId, amount, randomUUID()],
  );
}

export async function balanceOf(ds: DataSource, entityId: string): Promise<string> {
  const [row] = await ds.query(
    'SELECT COALESCE(sum(amount), 0)::numeric(20,2)::text AS b FROM credit_entry WHERE entity_id = $1',
    [entityId],
  );
  return row.b;
}
