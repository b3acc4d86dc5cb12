import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 35: a write bumps the version of every table it wrote, not of its events' names. The
 * versions were bumped from the type prefix of the events a change recorded (`member.added` →
 * `member`), so a write whose event named something else (a class split records
 * `security.split` and rewrites shareholdings) left the shareholding list cached as it was.
 *
 * Now the database itself notes what a statement wrote: a statement-level trigger on each table a
 * cached list reads (`track_table_versions`) adds `<organization>|<table>` to a setting local to
 * the transaction, and the first note of a transaction inserts its row in `resource_write`, whose
 * deferred constraint trigger bumps the noted versions once, at commit, in key order (two
 * transactions touching the same tables lock their version rows in the same order, and only for
 * the instant of the commit). Every path that writes a table (the ledger, the imports,
 * onboarding's build, a replay, an operator's SQL) bumps its version; a rolled-back savepoint
 * takes its notes with it.
 */
export class TableVersions1797100000000 implements MigrationInterface {
    name = 'TableVersions1797100000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "resource_write" ("txid" xid8 NOT NULL, CONSTRAINT "resource_write_pkey" PRIMARY KEY ("txid"))`);
        await queryRunner.query(`
            CREATE FUNCTION resource_versions_note() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
              noted text := coalesce(current_setting('ledgerline.touched', true), '');
              first boolean := noted = '';
              orgs text[];
              o text;
              k text;
            BEGIN
              IF TG_OP = 'INSERT' THEN
                SELECT array_agg(DISTINCT organization_id::text) INTO orgs FROM new_rows;
              ELSIF TG_OP = 'UPDATE' THEN
                SELECT array_agg(DISTINCT x) INTO orgs FROM (
                  SELECT organization_id::text x FROM new_rows
                  UNION SELECT organization_id::text FROM old_rows) u;
              ELSE
                SELECT array_agg(DISTINCT organization_id::text) INTO orgs FROM old_rows;
              END IF;
              IF orgs IS NULL THEN RETURN NULL; END IF;
              FOREACH o IN ARRAY orgs LOOP
                CONTINUE WHEN o IS NULL;
                k := o || '|' || TG_TABLE_NAME;
                IF position(',' || k || ',' IN ',' || noted || ',') = 0 THEN
                  noted := CASE WHEN noted = '' THEN k ELSE noted || ',' || k END;
                END IF;
              END LOOP;
              IF noted <> '' THEN
                IF first THEN
                  INSERT INTO resource_write (txid) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
                END IF;
                PERFORM set_config('ledgerline.touched', noted, true);
              END IF;
              RETURN NULL;
            END $$`);
        await queryRunner.query(`
            CREATE FUNCTION resource_versions_flush() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO resource_version AS v (organization_id, resource, version)
                SELECT split_part(k, '|', 1)::uuid, split_part(k, '|', 2), 1
                FROM (SELECT DISTINCT k FROM unnest(string_to_array(
                        nullif(current_setting('ledgerline.touched', true), ''), ',')) AS k) s
                ORDER BY 1, 2
              ON CONFLICT (organization_id, resource) DO UPDATE SET version = v.version + 1;
              PERFORM set_config('ledgerline.touched', '', true);
              DELETE FROM resource_write WHERE txid = NEW.txid;
              RETURN NULL;
            END $$`);
        await queryRunner.query(`
            CREATE CONSTRAINT TRIGGER resource_write_flush AFTER INSERT ON resource_write
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION resource_versions_flush()`);
        // A later migration tracks another table with one call (transition tables need one trigger
        // per kind of statement).
        await queryRunner.query(`
            CREATE FUNCTION track_table_versions(t regclass) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE name text := (SELECT relname FROM pg_class WHERE oid = t);
            BEGIN
              EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows
                FOR EACH STATEMENT EXECUTE FUNCTION resource_versions_note()', name || '_versions_ins', t);
              EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows
                NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION resource_versions_note()',
                name || '_versions_upd', t);
              EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows
                FOR EACH STATEMENT EXECUTE FUNCTION resource_versions_note()', name || '_versions_del', t);
            END $$`);
        for (const table of TRACKED) {
            await queryRunner.query(`SELECT track_table_versions('"${table}"')`);
        }
        // The versions of the names events gave are gone; every cached answer and ETag made under
        // them is abandoned (a version only ever grows, so a bump of each row cannot meet an old key).
        await queryRunner.query(`DELETE FROM resource_version WHERE resource <> ALL($1)`, [TRACKED]);
        await queryRunner.query(`UPDATE resource_version SET version = version + 1`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const table of TRACKED) {
            for (const kind of ['ins', 'upd', 'del']) {
                await queryRunner.query(`DROP TRIGGER "${table}_versions_${kind}" ON "${table}"`);
            }
        }
        await queryRunner.query(`DROP FUNCTION track_table_versions(regclass)`);
        await queryRunner.query(`DROP TRIGGER resource_write_flush ON "resource_write"`);
        await queryRunner.query(`DROP FUNCTION resource_versions_flush()`);
        await queryRunner.query(`DROP FUNCTION resource_versions_note()`);
        await queryRunner.query(`DROP TABLE "resource_write"`);
        await queryRunner.query(`UPDATE resource_version SET version = version + 1`);
    }
}

/** The tables the cached lists read (a test holds every list's tables to this). */
const TRACKED = [
    'member',
    'shareholding',
    'holding',
    'vesting_schedule',
    'security',
    'stock_plan',
    'stock_plan_pool',
    'document',
];
