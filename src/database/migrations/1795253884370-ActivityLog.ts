import { MigrationInterface, QueryRunner } from "typeorm";

export class ActivityLog1795253884370 implements MigrationInterface {
    name = 'ActivityLog1795253884370'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "activity_action" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "type" character varying(100) NOT NULL, "description" text NOT NULL, "user_id" uuid, "metadata" jsonb NOT NULL DEFAULT '{}'::jsonb, "event_id" character varying(40), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_432d2c44ec489a72c5b420984bf" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "activity_action_event_uq" ON "activity_action" ("event_id") WHERE event_id IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "activity_action_org_created_idx" ON "activity_action" ("organization_id", "created", "id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."activity_action_org_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."activity_action_event_uq"`);
        await queryRunner.query(`DROP TABLE "activity_action"`);
    }

}
