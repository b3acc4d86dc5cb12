import { MigrationInterface, QueryRunner } from "typeorm";

export class Organizations1795254607565 implements MigrationInterface {
    name = 'Organizations1795254607565'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_admin" ("user_id" uuid NOT NULL, "granted" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c1f49577c341e769679cba7fd3f" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`CREATE TABLE "organization" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(200) NOT NULL, "legal_name" character varying(300), "country" character(2), "currency" character(3) NOT NULL DEFAULT 'USD', "type" character varying(20) NOT NULL DEFAULT 'corporation', "entity_id" uuid NOT NULL, "address_id" uuid, "created_by" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_699d80ba9137133ff58cd5f22ee" UNIQUE ("entity_id"), CONSTRAINT "PK_472c1f99a32def1b0abb219cd67" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "role" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid, "name" character varying(100) NOT NULL, "permissions" text array NOT NULL DEFAULT '{}', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b36bcfe02fc8de3c57a8b2391c2" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "role_org_name_uq" ON "role" ("organization_id", "name") WHERE organization_id IS NOT NULL`);
        await queryRunner.query(`CREATE TABLE "member" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "user_id" uuid, "entity_id" uuid, "name" character varying(200) NOT NULL, "email" character varying(320), "title" character varying(120), "role_id" uuid NOT NULL, "status" character varying(20) NOT NULL DEFAULT 'active', "removed_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_97cbbe986ce9d14ca5894fdc072" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "member_user_idx" ON "member" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "member_org_email_uq" ON "member" ("organization_id", "email") WHERE email IS NOT NULL AND status <> 'removed'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "member_org_user_uq" ON "member" ("organization_id", "user_id") WHERE user_id IS NOT NULL AND status <> 'removed'`);
        await queryRunner.query(`CREATE TABLE "invitation" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "member_id" uuid NOT NULL, "email" character varying(320) NOT NULL, "role_id" uuid NOT NULL, "message" text, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "invited_by" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_beb994737756c0f18a1c1f8669c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "invitation_token_uq" ON "invitation" ("token_hash") `);
        await queryRunner.query(`CREATE TABLE "address" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid, "organization_id" uuid, "line1" character varying(200), "line2" character varying(200), "city" character varying(120), "region" character varying(120), "postal_code" character varying(20), "country" character(2), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d92de1f82754668b5f5f5dd4fd5" PRIMARY KEY ("id"))`);
        await queryRunner.query(`ALTER TABLE "profile" ADD "address_id" uuid`);
        // Built-in roles: fixed ids shared by every organization; their permissions live in code
        // (src/organizations/permissions/permissions.ts), not in this row.
        await queryRunner.query(`INSERT INTO "role" ("id", "organization_id", "name", "permissions") VALUES
            ('00000000-0000-4000-8000-000000000001', NULL, 'Owner', '{}'),
            ('00000000-0000-4000-8000-000000000002', NULL, 'Admin', '{}'),
            ('00000000-0000-4000-8000-000000000003', NULL, 'Editor', '{}'),
            ('00000000-0000-4000-8000-000000000004', NULL, 'Viewer', '{}'),
            ('00000000-0000-4000-8000-000000000005', NULL, 'Shareholder', '{}')`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "profile" DROP COLUMN "address_id"`);
        await queryRunner.query(`DROP TABLE "address"`);
        await queryRunner.query(`DROP INDEX "public"."invitation_token_uq"`);
        await queryRunner.query(`DROP TABLE "invitation"`);
        await queryRunner.query(`DROP INDEX "public"."member_org_user_uq"`);
        await queryRunner.query(`DROP INDEX "public"."member_org_email_uq"`);
        await queryRunner.query(`DROP INDEX "public"."member_user_idx"`);
        await queryRunner.query(`DROP TABLE "member"`);
        await queryRunner.query(`DROP INDEX "public"."role_org_name_uq"`);
        await queryRunner.query(`DROP TABLE "role"`);
        await queryRunner.query(`DROP TABLE "organization"`);
        await queryRunner.query(`DROP TABLE "site_admin"`);
    }

}
