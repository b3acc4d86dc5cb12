import { DataSource } from 'typeorm';
import { EVENT_TYPES } from '../../../src/events/event-types';
import { declaredRoutes } from '../../../src/events/on-domain-event';
import { createTestApp, TestApp } from '../../support/app';

type Route = { eventType: string; queue: string };
const key = (r: Route) => `${r.eventType} ${r.queue}`;
const sqlValue = (r: Route) => `('${r.eventType}', '${r.queue}')`;

/** The statements a migration needs to bring `migrated` to `declared`. */
function migrationSql(declared: Route[], migrated: Route[]): string[] {
  const have = new Set(migrated.map(key));
  const want = new Set(declared.map(key));
  const add = declared.filter((r) => !have.has(key(r)));
  const drop = migrated.filter((r) => !want.has(key(r)));
  return [
    ...(add.length
      ? [`INSERT INTO "event_route" ("event_type", "queue") VALUES ${add.map(sqlValue).join(', ')}`]
      : []),
    ...(drop.length
      ? [
          `DELETE FROM "event_route" WHERE ("event_type", "queue") IN (${drop.map(sqlValue).join(', ')})`,
        ]
      : []),
  ];
}

/**
 * The relay routes by the `event_route` rows the migrations write, so every instance of a rolling
 * upgrade routes alike; the code declares its routes with `@OnDomainEvent`. A new consumer or event
 * type is a new route: this fails until a migration writes it, and prints the statements.
 */
describe('event routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { OUTBOX_RELAY_INTERVAL_MS: '0' } });
  });
  afterAll(() => t.close());

  it('the migrations wrote exactly the routes the code declares', async () => {
    // Importing the app (above) declared every consumer of the code.
    const declared = declaredRoutes(EVENT_TYPES);
    const migrated: Route[] = await t
      .get<DataSource>(DataSource)
      .query('SELECT event_type AS "eventType", queue FROM event_route');
    const sql = migrationSql(declared, migrated);
    if (sql.length) {
      throw new Error(
        'The event routes of the code and of the migrations differ. A new migration ' +
          `(src/database/migrations) must run:\n\n${sql.map((q) => `  ${q};`).join('\n')}\n`,
      );
    }
    expect(migrated.map(key).sort()).toEqual(declared.map(key).sort());
  });

  it('words what a migration must run to add and to drop routes', () => {
    expect(
      migrationSql(
        [
          { eventType: 'member.added', queue: 'activity' },
          { eventType: 'member.added', queue: 'audit' },
        ],
        [
          { eventType: 'member.added', queue: 'activity' },
          { eventType: 'member.added', queue: 'chat' },
        ],
      ),
    ).toEqual([
      `INSERT INTO "event_route" ("event_type", "queue") VALUES ('member.added', 'audit')`,
      `DELETE FROM "event_route" WHERE ("event_type", "queue") IN (('member.added', 'chat'))`,
    ]);
  });
});
