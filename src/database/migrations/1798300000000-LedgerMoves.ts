import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 36: the ledger keeps each record's effective-dated moves, so a position as of a date is
 * an indexed query rather than a replay of the log. The moves of a log written before them are
 * made from it by the service at start-up (the reducer replays it: no SQL can), for the
 * organizations listed here.
 */
export class LedgerMoves1798300000000 implements MigrationInterface {
    name = 'LedgerMoves1798300000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "ledger_move" ("id" BIGSERIAL NOT NULL, "organization_id" uuid NOT NULL, "transaction_id" uuid NOT NULL, "effective_date" date NOT NULL, "dated_by" uuid, "kind" character varying(20) NOT NULL, "record_id" uuid NOT NULL, "member_id" uuid, "security_id" uuid, "creates" boolean NOT NULL DEFAULT false, "resets" boolean NOT NULL DEFAULT false, "quantity" numeric, "deltas" jsonb, "fields" jsonb, CONSTRAINT "PK_ledger_move" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ledger_move_org_kind_date_idx" ON "ledger_move" ("organization_id", "kind", "effective_date") `);
        await queryRunner.query(`CREATE INDEX "ledger_move_record_idx" ON "ledger_move" ("record_id", "id") `);
        await queryRunner.query(`CREATE INDEX "ledger_move_resets_idx" ON "ledger_move" ("organization_id", "effective_date") WHERE "resets"`);
        await queryRunner.query(`CREATE INDEX "ledger_move_dated_by_idx" ON "ledger_move" ("organization_id", "dated_by") WHERE "dated_by" IS NOT NULL`);
        await queryRunner.query(`ALTER TABLE "ledger_move" ADD CONSTRAINT "FK_b31e2f2fc9e75642933709f2414" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`CREATE TABLE "ledger_move_backfill" ("organization_id" uuid NOT NULL, CONSTRAINT "PK_ledger_move_backfill" PRIMARY KEY ("organization_id"))`);
        await queryRunner.query(`INSERT INTO "ledger_move_backfill" ("organization_id") SELECT DISTINCT "organization_id" FROM "equity_transaction"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "ledger_move_backfill"`);
        await queryRunner.query(`ALTER TABLE "ledger_move" DROP CONSTRAINT "FK_b31e2f2fc9e75642933709f2414"`);
        await queryRunner.query(`DROP INDEX "public"."ledger_move_dated_by_idx"`);
        await queryRunner.query(`DROP INDEX "public"."ledger_move_resets_idx"`);
        await queryRunner.query(`DROP INDEX "public"."ledger_move_record_idx"`);
        await queryRunner.query(`DROP INDEX "public"."ledger_move_org_kind_date_idx"`);
        await queryRunner.query(`DROP TABLE "ledger_move"`);
    }
}
