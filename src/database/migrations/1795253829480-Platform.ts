import { MigrationInterface, QueryRunner } from "typeorm";

export class Platform1795253829480 implements MigrationInterface {
    name = 'Platform1795253829480'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "processed_event" ("consumer" character varying(60) NOT NULL, "event_id" character varying(40) NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_df88f54e67ec5c5caece922a498" PRIMARY KEY ("consumer", "event_id"))`);
        await queryRunner.query(`CREATE TABLE "outbox_event" ("id" character varying(40) NOT NULL, "sequence" BIGSERIAL NOT NULL, "type" character varying(100) NOT NULL, "organization_id" uuid, "actor_user_id" uuid, "data" jsonb NOT NULL, "api_version" character varying(20) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "relayed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_cc0c9e40998e45ecfc5e313429d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "outbox_event_pending_idx" ON "outbox_event" ("sequence") WHERE relayed_at IS NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."outbox_event_pending_idx"`);
        await queryRunner.query(`DROP TABLE "outbox_event"`);
        await queryRunner.query(`DROP TABLE "processed_event"`);
    }

}
