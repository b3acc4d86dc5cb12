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

const server = http.createServer((req, res) => {
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
