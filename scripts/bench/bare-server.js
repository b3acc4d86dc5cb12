#!/usr/bin/env node
// The yardstick of `npm run bench`: bare Node `http` and a `pg` pool running the SQL the service
// runs for the same list, answering the same JSON. No framework, session or access check.
// Configured by the bench through BARE_* variables (it is not part of the service):
// BARE_ROUTES maps a path (`/member`, `/shareholding`; any query string is ignored) to the SQL
// and the fixed parameters of the list it answers.
const http = require('node:http');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: 10 });
const routes = new Map(Object.entries(JSON.parse(process.env.BARE_ROUTES)));

// The write twin: a transfer of `quantity` shares of a holding (one share block, as the bench
// seeds them) to a member, as one transaction: the class and the holding locked, the holding
// and its block updated, the new holding and its block, the log row and the outbox row inserted.
const TRANSFER = [
  `SELECT s.id AS security, s.id_prefix AS prefix, s.next_certificate_number AS n,
          h.organization_id AS organization, h.member_id AS member, h.quantity, h.price_per_share AS price,
          h.legend_ids AS legends, b.id AS block, b.from_number AS "from"
   FROM security s JOIN shareholding h ON h.security_id = s.id AND h.id = $1
   JOIN share_block b ON b.shareholding_id = h.id
   ORDER BY s.id FOR UPDATE OF s, h`,
  `WITH src AS (
     UPDATE shareholding SET quantity = quantity - $2,
       status = CASE WHEN quantity = $2 THEN 'transferred' ELSE status END, updated = now()
     WHERE id = $1),
   cls AS (UPDATE security SET next_certificate_number = next_certificate_number + 1 WHERE id = $3),
   dst AS (
     INSERT INTO shareholding (id, organization_id, member_id, security_id, quantity, price_per_share,
       issue_date, certificate_number, status, legend_ids, transferred_from_id)
     VALUES ($4, $5, $6, $3, $2, $7, $8, $9, 'active', $10, $1)),
   blk AS (UPDATE share_block SET from_number = from_number + $2 WHERE id = $11)
   INSERT INTO share_block (organization_id, security_id, shareholding_id, from_number, to_number)
   VALUES ($5, $3, $4, $12, $12 + $2 - 1)`,
  `WITH log AS (
     INSERT INTO equity_transaction (id, organization_id, type, effective_date, payload)
     VALUES ($1, $2, 'TX_STOCK_TRANSFER', $3, $4))
   INSERT INTO outbox_event (id, type, organization_id, data, api_version)
   VALUES ($5, 'shareholding.transferred', $2, $6, 'v1')`,
];

async function transfer(body) {
  const { shareholding, toMember, quantity, date } = JSON.parse(body);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const [h] = (await client.query(TRANSFER[0], [shareholding])).rows;
    const id = require('node:crypto').randomUUID();
    await client.query(TRANSFER[1], [
      shareholding, quantity, h.security, id, h.organization, toMember, h.price, date,
      `${h.prefix}${h.n}`, h.legends, h.block, h.from,
    ]);
    const payload = { sourceId: shareholding, destinationId: id, toMemberId: toMember, quantity, date };
    await client.query(TRANSFER[2], [
      require('node:crypto').randomUUID(), h.organization, date, payload,
      `evt_${require('node:crypto').randomUUID().replace(/-/g, '')}`, { object: { id, ...payload } },
    ]);
    await client.query('COMMIT');
    return JSON.stringify({ id, source: shareholding, destination: id });
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/transfer') {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () =>
      transfer(body).then(
        (json) => {
          res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8' });
          res.end(json);
        },
        (err) => {
          res.writeHead(500);
          res.end(String(err));
        },
      ),
    );
    return;
  }
  const route = routes.get(req.url.split('?')[0]);
  if (!route) {
    res.writeHead(404);
    res.end();
    return;
  }
  pool.query(route.sql, route.params).then(
    (result) => {
      const body = result.rows[0].json;
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    },
    (err) => {
      res.writeHead(500);
      res.end(String(err));
    },
  );
});
server.listen(Number(process.env.BARE_PORT), '127.0.0.1', () => process.send?.('ready'));
