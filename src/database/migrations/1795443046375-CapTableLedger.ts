import { MigrationInterface, QueryRunner } from "typeorm";

export class CapTableLedger1795443046375 implements MigrationInterface {
    name = 'CapTableLedger1795443046375'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "share_block" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "security_id" uuid NOT NULL, "shareholding_id" uuid NOT NULL, "from_number" numeric(38,10) NOT NULL, "to_number" numeric(38,10) NOT NULL, CONSTRAINT "PK_85c0a43e7a91f35cefbec7942c4" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "share_block_org_idx" ON "share_block" ("organization_id", "security_id", "from_number") `);
        await queryRunner.query(`CREATE INDEX "share_block_holding_idx" ON "share_block" ("shareholding_id") `);
        await queryRunner.query(`CREATE TABLE "security" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "class_type" character varying(20) NOT NULL, "id_prefix" character varying(20) NOT NULL, "authorized_shares" numeric(38,10) NOT NULL, "issued_shares" numeric(38,10) NOT NULL DEFAULT '0', "par_value" numeric(38,10), "original_issue_price" numeric(38,10), "currency" character(3) NOT NULL, "seniority" integer NOT NULL DEFAULT '1', "liquidation_preference_multiple" numeric(38,10), "participation_cap_multiple" numeric(38,10), "conversion_ratio" numeric(38,10) NOT NULL DEFAULT '1', "votes_per_share" numeric(38,10) NOT NULL DEFAULT '1', "board_approval_date" date, "next_certificate_number" integer NOT NULL DEFAULT '1', "next_share_number" numeric(38,10) NOT NULL DEFAULT '1', "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_148e8beb2eb8f65efdb658cb3fd" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "security_org_prefix_uq" ON "security" ("organization_id", "id_prefix") WHERE deleted_at IS NULL`);
        await queryRunner.query(`CREATE UNIQUE INDEX "security_org_name_uq" ON "security" ("organization_id", "name") WHERE deleted_at IS NULL`);
        await queryRunner.query(`CREATE INDEX "security_org_idx" ON "security" ("organization_id") `);
        await queryRunner.query(`CREATE TABLE "legend" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "text" text NOT NULL, "is_default" boolean NOT NULL DEFAULT false, "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5fba016a486f800170064e98cf2" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "legend_org_idx" ON "legend" ("organization_id") `);
        await queryRunner.query(`CREATE TABLE "capital_change" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "entity_id" uuid NOT NULL, "date" date NOT NULL, "amount" numeric(38,10) NOT NULL, "currency" character(3) NOT NULL, "type" character varying(20) NOT NULL, "description" text, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b7ae10dce8d57b2b0fc22a72e86" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "capital_change_entity_idx" ON "capital_change" ("entity_id") `);
        await queryRunner.query(`CREATE INDEX "capital_change_org_idx" ON "capital_change" ("organization_id", "date") `);
        await queryRunner.query(`CREATE TABLE "shareholding" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "security_id" uuid NOT NULL, "quantity" numeric(38,10) NOT NULL, "price_per_share" numeric(38,10), "issue_date" date NOT NULL, "certificate_number" character varying(40) NOT NULL, "status" character varying(20) NOT NULL, "legend_ids" uuid array NOT NULL DEFAULT '{}', "consideration" text, "transferred_from_id" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_715b0156c838e82696959c55d2a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "shareholding_security_idx" ON "shareholding" ("security_id") `);
        await queryRunner.query(`CREATE INDEX "shareholding_member_idx" ON "shareholding" ("member_id") `);
        await queryRunner.query(`CREATE INDEX "shareholding_org_idx" ON "shareholding" ("organization_id", "created", "id") `);
        await queryRunner.query(`CREATE TABLE "valuation" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "type" character varying(40) NOT NULL, "price_per_share" numeric(38,10) NOT NULL, "security_id" uuid, "effective_date" date NOT NULL, "provider" character varying(200), "report_file_id" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_43fada707685f497627778ad36d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "valuation_org_date_idx" ON "valuation" ("organization_id", "effective_date") `);
        await queryRunner.query(`CREATE TABLE "equity_transaction" ("id" uuid NOT NULL, "sequence" BIGSERIAL NOT NULL, "organization_id" uuid NOT NULL, "type" character varying(60) NOT NULL, "effective_date" date NOT NULL, "actor_user_id" uuid, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "payload" jsonb NOT NULL, CONSTRAINT "PK_c05442086a5af984375f6f323ac" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "equity_transaction_org_sequence_idx" ON "equity_transaction" ("organization_id", "sequence") `);
        await queryRunner.query(`ALTER TABLE "share_block" ADD CONSTRAINT "FK_9b63d17b3bffd53a328da8395dd" FOREIGN KEY ("shareholding_id") REFERENCES "shareholding"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "security" ADD CONSTRAINT "FK_a86038dd7013feefb7dfd5d5b56" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "legend" ADD CONSTRAINT "FK_9bb2adb343c5a78d23d4f47bf4e" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "capital_change" ADD CONSTRAINT "FK_72076f8c438f8f91008ced50765" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "capital_change" ADD CONSTRAINT "FK_8314ea05c688006217b2dae2fdf" FOREIGN KEY ("member_id") REFERENCES "member"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "shareholding" ADD CONSTRAINT "FK_9eee48b0ff0af8a0580912dcf96" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "shareholding" ADD CONSTRAINT "FK_9f811227efdffbacdf206ce8722" FOREIGN KEY ("member_id") REFERENCES "member"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "shareholding" ADD CONSTRAINT "FK_74349dfbcf82ec5adc126179cc6" FOREIGN KEY ("security_id") REFERENCES "security"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "valuation" ADD CONSTRAINT "FK_c8d1eb784cb9bf149d03a55a38a" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "equity_transaction" ADD CONSTRAINT "FK_647d53f1ccd0ac5a3a20b5d6113" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        // The log is append-only: PostgreSQL itself refuses to change or remove a transaction.
        await queryRunner.query(`CREATE FUNCTION equity_transaction_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'equity_transaction is append-only: % refused (record a correcting transaction instead)', TG_OP
                    USING ERRCODE = 'integrity_constraint_violation';
            END $$`);
        await queryRunner.query(`CREATE TRIGGER equity_transaction_no_change BEFORE UPDATE OR DELETE ON "equity_transaction" FOR EACH ROW EXECUTE FUNCTION equity_transaction_append_only()`);
        await queryRunner.query(`CREATE TRIGGER equity_transaction_no_truncate BEFORE TRUNCATE ON "equity_transaction" FOR EACH STATEMENT EXECUTE FUNCTION equity_transaction_append_only()`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER equity_transaction_no_truncate ON "equity_transaction"`);
        await queryRunner.query(`DROP TRIGGER equity_transaction_no_change ON "equity_transaction"`);
        await queryRunner.query(`DROP FUNCTION equity_transaction_append_only()`);
        await queryRunner.query(`ALTER TABLE "equity_transaction" DROP CONSTRAINT "FK_647d53f1ccd0ac5a3a20b5d6113"`);
        await queryRunner.query(`ALTER TABLE "valuation" DROP CONSTRAINT "FK_c8d1eb784cb9bf149d03a55a38a"`);
        await queryRunner.query(`ALTER TABLE "shareholding" DROP CONSTRAINT "FK_74349dfbcf82ec5adc126179cc6"`);
        await queryRunner.query(`ALTER TABLE "shareholding" DROP CONSTRAINT "FK_9f811227efdffbacdf206ce8722"`);
        await queryRunner.query(`ALTER TABLE "shareholding" DROP CONSTRAINT "FK_9eee48b0ff0af8a0580912dcf96"`);
        await queryRunner.query(`ALTER TABLE "capital_change" DROP CONSTRAINT "FK_8314ea05c688006217b2dae2fdf"`);
        await queryRunner.query(`ALTER TABLE "capital_change" DROP CONSTRAINT "FK_72076f8c438f8f91008ced50765"`);
        await queryRunner.query(`ALTER TABLE "legend" DROP CONSTRAINT "FK_9bb2adb343c5a78d23d4f47bf4e"`);
        await queryRunner.query(`ALTER TABLE "security" DROP CONSTRAINT "FK_a86038dd7013feefb7dfd5d5b56"`);
        await queryRunner.query(`ALTER TABLE "share_block" DROP CONSTRAINT "FK_9b63d17b3bffd53a328da8395dd"`);
        await queryRunner.query(`DROP INDEX "public"."equity_transaction_org_sequence_idx"`);
        await queryRunner.query(`DROP TABLE "equity_transaction"`);
        await queryRunner.query(`DROP INDEX "public"."valuation_org_date_idx"`);
        await queryRunner.query(`DROP TABLE "valuation"`);
        await queryRunner.query(`DROP INDEX "public"."shareholding_org_idx"`);
        await queryRunner.query(`DROP INDEX "public"."shareholding_member_idx"`);
        await queryRunner.query(`DROP INDEX "public"."shareholding_security_idx"`);
        await queryRunner.query(`DROP TABLE "shareholding"`);
        await queryRunner.query(`DROP INDEX "public"."capital_change_org_idx"`);
        await queryRunner.query(`DROP INDEX "public"."capital_change_entity_idx"`);
        await queryRunner.query(`DROP TABLE "capital_change"`);
        await queryRunner.query(`DROP INDEX "public"."legend_org_idx"`);
        await queryRunner.query(`DROP TABLE "legend"`);
        await queryRunner.query(`DROP INDEX "public"."security_org_idx"`);
        await queryRunner.query(`DROP INDEX "public"."security_org_name_uq"`);
        await queryRunner.query(`DROP INDEX "public"."security_org_prefix_uq"`);
        await queryRunner.query(`DROP TABLE "security"`);
        await queryRunner.query(`DROP INDEX "public"."share_block_holding_idx"`);
        await queryRunner.query(`DROP INDEX "public"."share_block_org_idx"`);
        await queryRunner.query(`DROP TABLE "share_block"`);
    }

}
