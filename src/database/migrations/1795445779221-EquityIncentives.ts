import { MigrationInterface, QueryRunner } from "typeorm";

export class EquityIncentives1795445779221 implements MigrationInterface {
    name = 'EquityIncentives1795445779221'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "vesting_schedule" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "plan_id" uuid, "name" character varying(200) NOT NULL, "version" integer NOT NULL, "previous_version_id" uuid, "superseded_by_id" uuid, "total_periods" integer NOT NULL, "period_length" integer NOT NULL, "period_type" character varying(10) NOT NULL, "cliff_periods" integer NOT NULL, "allocation_type" character varying(40) NOT NULL, "vesting_day_of_month" character varying(40), "acceleration" jsonb, "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4818b05532ed9058110ed5b5b13" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "vesting_schedule_org_idx" ON "vesting_schedule" ("organization_id", "created", "id") `);
        await queryRunner.query(`CREATE TABLE "stock_plan_pool" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "plan_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "shares_reserved" numeric(38,10) NOT NULL, "granted" numeric(38,10) NOT NULL DEFAULT '0', "exercised" numeric(38,10) NOT NULL DEFAULT '0', "cancelled" numeric(38,10) NOT NULL DEFAULT '0', "returned" numeric(38,10) NOT NULL DEFAULT '0', "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_883051be93265c491b7b9cf6d02" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "stock_plan_pool_org_idx" ON "stock_plan_pool" ("organization_id") `);
        await queryRunner.query(`CREATE INDEX "stock_plan_pool_plan_idx" ON "stock_plan_pool" ("plan_id") `);
        await queryRunner.query(`CREATE TABLE "stock_plan" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "security_id" uuid NOT NULL, "shares_reserved" numeric(38,10) NOT NULL, "board_approval_date" date, "stockholder_approval_date" date, "default_cancellation_behavior" character varying(20) NOT NULL, "exercised" numeric(38,10) NOT NULL DEFAULT '0', "retired" numeric(38,10) NOT NULL DEFAULT '0', "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a195b4b3b21ba0498e69c584e5b" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "stock_plan_org_idx" ON "stock_plan" ("organization_id", "created", "id") `);
        await queryRunner.query(`CREATE TABLE "exercise_request" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "holding_id" uuid NOT NULL, "quantity" numeric(38,10) NOT NULL, "date" date NOT NULL, "payment_method" character varying(100), "requested_by_user_id" uuid, "status" character varying(20) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d5acbb2a9f3ad71ef0676ce45a6" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "exercise_request_holding_idx" ON "exercise_request" ("holding_id") `);
        await queryRunner.query(`CREATE TABLE "holding" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "type" character varying(20) NOT NULL, "status" character varying(20) NOT NULL, "plan_id" uuid, "pool_id" uuid, "security_id" uuid, "vesting_schedule_id" uuid, "quantity" numeric(38,10), "exercised" numeric(38,10) NOT NULL DEFAULT '0', "cancelled" numeric(38,10) NOT NULL DEFAULT '0', "principal_outstanding" numeric(38,10), "accrued_unpaid" numeric, "accrued_through" date, "interest_paid" numeric, "terms" jsonb NOT NULL, "conversion" jsonb, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_82c37e949073d49d4b73e34a903" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "holding_pool_idx" ON "holding" ("pool_id") `);
        await queryRunner.query(`CREATE INDEX "holding_member_idx" ON "holding" ("member_id") `);
        await queryRunner.query(`CREATE INDEX "holding_org_idx" ON "holding" ("organization_id", "created", "id") `);
        await queryRunner.query(`ALTER TABLE "security" ADD "reserved_shares" numeric(38,10) NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "vesting_schedule" ADD CONSTRAINT "FK_5d6635df4f3a8e359d072c7d32a" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "stock_plan_pool" ADD CONSTRAINT "FK_27838b031903eb40c3fc99038d5" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "stock_plan_pool" ADD CONSTRAINT "FK_48dbd86fe1967ec6a5789473c64" FOREIGN KEY ("plan_id") REFERENCES "stock_plan"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "stock_plan" ADD CONSTRAINT "FK_6eaa024e84c79e9ecd56bbf4a3b" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "stock_plan" ADD CONSTRAINT "FK_4b5af1562a48283ca634c815200" FOREIGN KEY ("security_id") REFERENCES "security"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "exercise_request" ADD CONSTRAINT "FK_e94cfdb05442d0694b41af026d8" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "exercise_request" ADD CONSTRAINT "FK_d9d52abc561e49824c10e646683" FOREIGN KEY ("holding_id") REFERENCES "holding"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "holding" ADD CONSTRAINT "FK_007476aaa08112a790cdf973b34" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "holding" ADD CONSTRAINT "FK_8ca1ede2dccef55309a75ffc7ca" FOREIGN KEY ("member_id") REFERENCES "member"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "holding" DROP CONSTRAINT "FK_8ca1ede2dccef55309a75ffc7ca"`);
        await queryRunner.query(`ALTER TABLE "holding" DROP CONSTRAINT "FK_007476aaa08112a790cdf973b34"`);
        await queryRunner.query(`ALTER TABLE "exercise_request" DROP CONSTRAINT "FK_d9d52abc561e49824c10e646683"`);
        await queryRunner.query(`ALTER TABLE "exercise_request" DROP CONSTRAINT "FK_e94cfdb05442d0694b41af026d8"`);
        await queryRunner.query(`ALTER TABLE "stock_plan" DROP CONSTRAINT "FK_4b5af1562a48283ca634c815200"`);
        await queryRunner.query(`ALTER TABLE "stock_plan" DROP CONSTRAINT "FK_6eaa024e84c79e9ecd56bbf4a3b"`);
        await queryRunner.query(`ALTER TABLE "stock_plan_pool" DROP CONSTRAINT "FK_48dbd86fe1967ec6a5789473c64"`);
        await queryRunner.query(`ALTER TABLE "stock_plan_pool" DROP CONSTRAINT "FK_27838b031903eb40c3fc99038d5"`);
        await queryRunner.query(`ALTER TABLE "vesting_schedule" DROP CONSTRAINT "FK_5d6635df4f3a8e359d072c7d32a"`);
        await queryRunner.query(`ALTER TABLE "security" DROP COLUMN "reserved_shares"`);
        await queryRunner.query(`DROP INDEX "public"."holding_org_idx"`);
        await queryRunner.query(`DROP INDEX "public"."holding_member_idx"`);
        await queryRunner.query(`DROP INDEX "public"."holding_pool_idx"`);
        await queryRunner.query(`DROP TABLE "holding"`);
        await queryRunner.query(`DROP INDEX "public"."exercise_request_holding_idx"`);
        await queryRunner.query(`DROP TABLE "exercise_request"`);
        await queryRunner.query(`DROP INDEX "public"."stock_plan_org_idx"`);
        await queryRunner.query(`DROP TABLE "stock_plan"`);
        await queryRunner.query(`DROP INDEX "public"."stock_plan_pool_plan_idx"`);
        await queryRunner.query(`DROP INDEX "public"."stock_plan_pool_org_idx"`);
        await queryRunner.query(`DROP TABLE "stock_plan_pool"`);
        await queryRunner.query(`DROP INDEX "public"."vesting_schedule_org_idx"`);
        await queryRunner.query(`DROP TABLE "vesting_schedule"`);
    }

}
