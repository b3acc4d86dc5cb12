import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Outbound webhook deliveries (issue 21): one row per event and endpoint with its retry state, one
 * per HTTP attempt (the delivery history), and on the endpoint its retired secrets (rotation), the
 * start of its failing streak and the worker's lease.
 */
export class WebhookDeliveries1796300000000 implements MigrationInterface {
    name = 'WebhookDeliveries1796300000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook_delivery" ("id" character varying(36) NOT NULL, "sequence" BIGSERIAL NOT NULL, "endpoint_id" character varying(35) NOT NULL, "organization_id" uuid NOT NULL, "event_id" character varying(40) NOT NULL, "event_type" character varying(100) NOT NULL, "event_created" TIMESTAMP WITH TIME ZONE NOT NULL, "body" text NOT NULL, "test" boolean NOT NULL DEFAULT false, "status" character varying(20) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_http_status" integer, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b1ae290239a778f12399db91354" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_delivery_last_idx" ON "webhook_delivery" ("endpoint_id", "last_attempt_at")`);
        await queryRunner.query(`CREATE INDEX "webhook_delivery_sweep_idx" ON "webhook_delivery" ("next_attempt_at") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE INDEX "webhook_delivery_due_idx" ON "webhook_delivery" ("endpoint_id", "event_created", "sequence") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE TABLE "webhook_attempt" ("id" uuid NOT NULL, "delivery_id" character varying(36) NOT NULL, "endpoint_id" character varying(35) NOT NULL, "event_id" character varying(40) NOT NULL, "event_type" character varying(100) NOT NULL, "attempt" integer NOT NULL, "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "http_status" integer NOT NULL, "response_time" integer NOT NULL, "response_body" text, "error" character varying(500), CONSTRAINT "PK_e4ff77b66cdd20591ba6189a1f9" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_attempt_endpoint_idx" ON "webhook_attempt" ("endpoint_id", "timestamp", "id")`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "retired_secrets" jsonb NOT NULL DEFAULT '[]'`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "failing_since" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "lease_token" uuid`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "lease_until" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_f53f5aec02217a54927b13e39d9" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_attempt" ADD CONSTRAINT "FK_d7ed48c4841159bfd6bdee166ea" FOREIGN KEY ("delivery_id") REFERENCES "webhook_delivery"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_attempt" DROP CONSTRAINT "FK_d7ed48c4841159bfd6bdee166ea"`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_f53f5aec02217a54927b13e39d9"`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "lease_until"`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "lease_token"`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "failing_since"`);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "retired_secrets"`);
        await queryRunner.query(`DROP TABLE "webhook_attempt"`);
        await queryRunner.query(`DROP TABLE "webhook_delivery"`);
    }
}
