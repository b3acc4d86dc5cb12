import { MigrationInterface, QueryRunner } from "typeorm";

/** The organizations' outbound webhook endpoints (issue 21), their secrets sealed. */
export class WebhookEndpoints1796200000000 implements MigrationInterface {
    name = 'WebhookEndpoints1796200000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook_endpoint" ("id" character varying(35) NOT NULL, "organization_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "events" text array NOT NULL, "description" character varying(500), "active" boolean NOT NULL DEFAULT true, "secret" text NOT NULL, "disabled_at" TIMESTAMP WITH TIME ZONE, "disabled_reason" character varying(20), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c98112122b2b8a4f3984d2efa8" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "webhook_endpoint_organization_idx" ON "webhook_endpoint" ("organization_id", "created") `);
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "FK_e5800fed79898bb7202e9312276" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP CONSTRAINT "FK_e5800fed79898bb7202e9312276"`);
        await queryRunner.query(`DROP INDEX "public"."webhook_endpoint_organization_idx"`);
        await queryRunner.query(`DROP TABLE "webhook_endpoint"`);
    }
}
