import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Billing (issue 22): the entities that are provider customers, the organizations' subscriptions
 * (at most one live), the entities' payment profiles (brand and last four only), the webhooks
 * handled, and where each organization's seat counts stand with the provider.
 */
export class Billing1796000000000 implements MigrationInterface {
    name = 'Billing1796000000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "billing_subscription" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "entity_id" uuid NOT NULL, "provider_id" bigint NOT NULL, "product_handle" character varying(100) NOT NULL, "price_point_handle" character varying(100), "payment_profile_provider_id" bigint, "state" character varying(30) NOT NULL, "current_period_ends_at" TIMESTAMP WITH TIME ZONE, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "provider_updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "cancellation_recorded" boolean NOT NULL DEFAULT false, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_9c15b0c4d9436ff44d3139052eb" UNIQUE ("provider_id"), CONSTRAINT "PK_8b9c9afe4a9be7063f580f006de" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "billing_subscription_org_idx" ON "billing_subscription" ("organization_id", "created") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "billing_subscription_one_live_idx" ON "billing_subscription" ("organization_id") WHERE state NOT IN ('canceled', 'expired')`);
        await queryRunner.query(`CREATE TABLE "billing_webhook" ("id" character varying(100) NOT NULL, "event" character varying(100) NOT NULL, "organization_id" uuid, "received" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1f4b2be097300e6357ab55b3355" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "billing_payment_profile" ("id" uuid NOT NULL, "entity_id" uuid NOT NULL, "provider_id" bigint NOT NULL, "brand" character varying(40) NOT NULL, "last4" character varying(4) NOT NULL, "expiration_month" smallint, "expiration_year" smallint, "is_default" boolean NOT NULL DEFAULT false, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_364624878ad296d5f5402e9a72b" UNIQUE ("provider_id"), CONSTRAINT "PK_e83f979d3b6a677182920090edf" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "billing_payment_profile_entity_idx" ON "billing_payment_profile" ("entity_id", "created") `);
        await queryRunner.query(`CREATE TABLE "billing_customer" ("entity_id" uuid NOT NULL, "provider_customer_id" bigint NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_5d3aeb2ebccae8075a9ba06f03d" UNIQUE ("provider_customer_id"), CONSTRAINT "PK_e2d562a06a26cbc6b8babdd9c98" PRIMARY KEY ("entity_id"))`);
        await queryRunner.query(`CREATE TABLE "billing_count_sync" ("organization_id" uuid NOT NULL, "requested_seq" integer NOT NULL DEFAULT '0', "pushed_seq" integer NOT NULL DEFAULT '0', "pushed_members" integer, "pushed_shareholders" integer, "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_da80e8d466c8de507cc2515649c" PRIMARY KEY ("organization_id"))`);
        await queryRunner.query(`ALTER TABLE "billing_subscription" ADD CONSTRAINT "FK_89ee3fc4d45571e1fe42e0e099e" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "billing_payment_profile" ADD CONSTRAINT "FK_86529c8870e4dded4cc68d0a6b4" FOREIGN KEY ("entity_id") REFERENCES "entity"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "billing_customer" ADD CONSTRAINT "FK_e2d562a06a26cbc6b8babdd9c98" FOREIGN KEY ("entity_id") REFERENCES "entity"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "billing_count_sync" ADD CONSTRAINT "FK_da80e8d466c8de507cc2515649c" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "billing_count_sync" DROP CONSTRAINT "FK_da80e8d466c8de507cc2515649c"`);
        await queryRunner.query(`ALTER TABLE "billing_customer" DROP CONSTRAINT "FK_e2d562a06a26cbc6b8babdd9c98"`);
        await queryRunner.query(`ALTER TABLE "billing_payment_profile" DROP CONSTRAINT "FK_86529c8870e4dded4cc68d0a6b4"`);
        await queryRunner.query(`ALTER TABLE "billing_subscription" DROP CONSTRAINT "FK_89ee3fc4d45571e1fe42e0e099e"`);
        await queryRunner.query(`DROP TABLE "billing_count_sync"`);
        await queryRunner.query(`DROP TABLE "billing_customer"`);
        await queryRunner.query(`DROP INDEX "public"."billing_payment_profile_entity_idx"`);
        await queryRunner.query(`DROP TABLE "billing_payment_profile"`);
        await queryRunner.query(`DROP TABLE "billing_webhook"`);
        await queryRunner.query(`DROP INDEX "public"."billing_subscription_one_live_idx"`);
        await queryRunner.query(`DROP INDEX "public"."billing_subscription_org_idx"`);
        await queryRunner.query(`DROP TABLE "billing_subscription"`);
    }

}
