import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The counts the billing provider charges by (shareholders: members holding active shares;
 * members with equity: active shares or an active grant, warrant, note or SAFE), kept by the
 * database itself instead of counted on every write of the cap table (a count of 12,000 holdings
 * took ~7 ms inside the class's lock). Statement-level triggers with transition tables see every
 * path that changes a holding (the ledger's writes, the bulk CSV and OCF imports, a replay) and
 * cost one aggregate per statement, not one update per row.
 *
 * Lock order: the organization's tally row first (created if absent), then the members' rows in
 * key order, so two writes of one organization serialise on the first and cannot deadlock on the
 * others. Every write of a cap table already takes its class locks before it writes.
 *
 * No CHECK (counts >= 0) on the members' rows: PostgreSQL checks the row an upsert proposes (the
 * delta, which may be negative) before it finds the conflict. `ledger:verify` recounts instead.
 */
export class EquityTallies1795900000000 implements MigrationInterface {
    name = 'EquityTallies1795900000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "member_equity_tally" (
            "organization_id" uuid NOT NULL,
            "member_id" uuid NOT NULL,
            "shareholdings" integer NOT NULL DEFAULT 0,
            "holdings" integer NOT NULL DEFAULT 0,
            CONSTRAINT "member_equity_tally_pkey" PRIMARY KEY ("organization_id", "member_id")
        )`);
        await queryRunner.query(`CREATE TABLE "organization_equity_tally" (
            "organization_id" uuid NOT NULL,
            "shareholders" integer NOT NULL DEFAULT 0,
            "members" integer NOT NULL DEFAULT 0,
            CONSTRAINT "organization_equity_tally_pkey" PRIMARY KEY ("organization_id")
        )`);
        await queryRunner.query(`
            CREATE FUNCTION equity_tally_add(orgs uuid[], members uuid[], ds integer[], dh integer[])
            RETURNS void LANGUAGE sql AS $$
              INSERT INTO organization_equity_tally (organization_id)
                SELECT DISTINCT o FROM unnest(orgs) o ORDER BY 1 ON CONFLICT DO NOTHING;
              SELECT 1 FROM organization_equity_tally
                WHERE organization_id = ANY(orgs) ORDER BY organization_id FOR UPDATE;
              WITH d AS (
                SELECT * FROM unnest(orgs, members, ds, dh) AS d(organization_id, member_id, ds, dh)
              ), up AS (
                INSERT INTO member_equity_tally AS t (organization_id, member_id, shareholdings, holdings)
                  SELECT organization_id, member_id, ds, dh FROM d ORDER BY organization_id, member_id
                ON CONFLICT (organization_id, member_id) DO UPDATE
                  SET shareholdings = t.shareholdings + EXCLUDED.shareholdings,
                      holdings = t.holdings + EXCLUDED.holdings
                RETURNING t.organization_id, t.member_id, t.shareholdings, t.holdings
              ), total AS (
                SELECT up.organization_id,
                  sum((up.shareholdings > 0)::int - (up.shareholdings - d.ds > 0)::int) AS shareholders,
                  sum((up.shareholdings + up.holdings > 0)::int
                    - (up.shareholdings + up.holdings - d.ds - d.dh > 0)::int) AS members
                FROM up JOIN d USING (organization_id, member_id) GROUP BY 1
              )
              UPDATE organization_equity_tally t
                SET shareholders = t.shareholders + total.shareholders, members = t.members + total.members
                FROM total WHERE t.organization_id = total.organization_id;
            $$`);
        // TG_ARGV[0]: which count the table's active rows make (shareholdings or holdings).
        await queryRunner.query(`
            CREATE FUNCTION equity_tally_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE o uuid[]; m uuid[]; d integer[]; zero integer[];
            BEGIN
              IF TG_OP = 'INSERT' THEN
                SELECT array_agg(organization_id), array_agg(member_id), array_agg(n) INTO o, m, d
                FROM (SELECT organization_id, member_id, count(*)::int AS n FROM new_rows
                      WHERE status = 'active' GROUP BY 1, 2) x;
              ELSIF TG_OP = 'UPDATE' THEN
                SELECT array_agg(organization_id), array_agg(member_id), array_agg(n) INTO o, m, d
                FROM (SELECT organization_id, member_id, sum(n)::int AS n FROM (
                        SELECT organization_id, member_id, 1 AS n FROM new_rows WHERE status = 'active'
                        UNION ALL
                        SELECT organization_id, member_id, -1 FROM old_rows WHERE status = 'active') u
                      GROUP BY 1, 2 HAVING sum(n) <> 0) x;
              ELSE
                SELECT array_agg(organization_id), array_agg(member_id), array_agg(n) INTO o, m, d
                FROM (SELECT organization_id, member_id, -count(*)::int AS n FROM old_rows
                      WHERE status = 'active' GROUP BY 1, 2) x;
              END IF;
              IF o IS NULL THEN RETURN NULL; END IF;
              zero := array_fill(0, ARRAY[cardinality(d)]);
              IF TG_ARGV[0] = 'shareholdings' THEN
                PERFORM equity_tally_add(o, m, d, zero);
              ELSE
                PERFORM equity_tally_add(o, m, zero, d);
              END IF;
              RETURN NULL;
            END $$`);
        for (const [table, counts] of [["shareholding", "shareholdings"], ["holding", "holdings"]]) {
            await queryRunner.query(`CREATE TRIGGER "${table}_tally_insert" AFTER INSERT ON "${table}"
                REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION equity_tally_trigger('${counts}')`);
            await queryRunner.query(`CREATE TRIGGER "${table}_tally_update" AFTER UPDATE ON "${table}"
                REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION equity_tally_trigger('${counts}')`);
            await queryRunner.query(`CREATE TRIGGER "${table}_tally_delete" AFTER DELETE ON "${table}"
                REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION equity_tally_trigger('${counts}')`);
        }
        // What exists already, counted once.
        await queryRunner.query(`
            INSERT INTO member_equity_tally (organization_id, member_id, shareholdings, holdings)
            SELECT organization_id, member_id, sum(s)::int, sum(h)::int FROM (
              SELECT organization_id, member_id, 1 AS s, 0 AS h FROM shareholding WHERE status = 'active'
              UNION ALL
              SELECT organization_id, member_id, 0, 1 FROM holding WHERE status = 'active') a
            GROUP BY 1, 2`);
        await queryRunner.query(`
            INSERT INTO organization_equity_tally (organization_id, shareholders, members)
            SELECT organization_id, count(*) FILTER (WHERE shareholdings > 0), count(*)
            FROM member_equity_tally GROUP BY 1`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const table of ["shareholding", "holding"]) {
            for (const op of ["insert", "update", "delete"]) {
                await queryRunner.query(`DROP TRIGGER "${table}_tally_${op}" ON "${table}"`);
            }
        }
        await queryRunner.query(`DROP FUNCTION equity_tally_trigger()`);
        await queryRunner.query(`DROP FUNCTION equity_tally_add(uuid[], uuid[], integer[], integer[])`);
        await queryRunner.query(`DROP TABLE "organization_equity_tally"`);
        await queryRunner.query(`DROP TABLE "member_equity_tally"`);
    }

}
