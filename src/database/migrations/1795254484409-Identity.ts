import { MigrationInterface, QueryRunner } from "typeorm";

export class Identity1795254484409 implements MigrationInterface {
    name = 'Identity1795254484409'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "user_account" ("id" uuid NOT NULL, "email" character varying(320) NOT NULL, "password_hash" character varying(255), "name" character varying(200), "email_verified" boolean NOT NULL DEFAULT false, "two_factor_enabled" boolean NOT NULL DEFAULT false, "two_factor_secret" text, "two_factor_last_step" integer, "idp_subject" character varying(255), "entity_id" uuid NOT NULL, "profile_id" uuid NOT NULL, "referral_code" character varying(64), "registration_ip" character varying(45), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6acfec7285fdf9f463462de3e9f" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "user_account_email_uq" ON "user_account" ("email") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "user_account_idp_subject_uq" ON "user_account" ("idp_subject") WHERE idp_subject IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "user_account_registration_ip_idx" ON "user_account" ("registration_ip") `);
        await queryRunner.query(`CREATE TABLE "email_verification_code" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "code_digest" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "failed_attempts" integer NOT NULL DEFAULT '0', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7fc72ac16aeeab466c48748221c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "email_verification_code_user_idx" ON "email_verification_code" ("user_id") `);
        await queryRunner.query(`CREATE TABLE "user_state" ("user_id" uuid NOT NULL, "completed_steps" jsonb NOT NULL DEFAULT '[]', "preferences" jsonb NOT NULL DEFAULT '{}', "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_37ce04acc330443acbc020f77bd" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`CREATE TABLE "email_blocklist_entry" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kind" character varying(10) NOT NULL, "value" character varying(320) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "email_blocklist_entry_kind_value_uq" UNIQUE ("kind", "value"), CONSTRAINT "PK_0fadfc78e0ab17c9ae9a4d7d0e6" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "temporary_password" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "password_hash" character varying(255) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_466a6d310a1e6530d9c253732ec" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "temporary_password_user_idx" ON "temporary_password" ("user_id") `);
        await queryRunner.query(`CREATE TABLE "magic_link_token" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "token_digest" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dd1d00fdff85260e45d6e72f979" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "magic_link_token_user_idx" ON "magic_link_token" ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "magic_link_token_digest_uq" ON "magic_link_token" ("token_digest") `);
        await queryRunner.query(`CREATE TABLE "color_preference" ("user_id" uuid NOT NULL, "target" character varying(200) NOT NULL, "color" character varying(7) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4bbd86af10a1f1b340705eecbdc" PRIMARY KEY ("user_id", "target"))`);
        await queryRunner.query(`ALTER TABLE "email_verification_code" ADD CONSTRAINT "FK_407501e57fa62e095e0cead8de5" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "user_state" ADD CONSTRAINT "FK_37ce04acc330443acbc020f77bd" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "temporary_password" ADD CONSTRAINT "FK_e576b0cca21dc48463fd9a9e44f" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "magic_link_token" ADD CONSTRAINT "FK_c21d20e1af74597f4218801c73c" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "color_preference" ADD CONSTRAINT "FK_ded02134d8037f82371b68da3e5" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "color_preference" DROP CONSTRAINT "FK_ded02134d8037f82371b68da3e5"`);
        await queryRunner.query(`ALTER TABLE "magic_link_token" DROP CONSTRAINT "FK_c21d20e1af74597f4218801c73c"`);
        await queryRunner.query(`ALTER TABLE "temporary_password" DROP CONSTRAINT "FK_e576b0cca21dc48463fd9a9e44f"`);
        await queryRunner.query(`ALTER TABLE "user_state" DROP CONSTRAINT "FK_37ce04acc330443acbc020f77bd"`);
        await queryRunner.query(`ALTER TABLE "email_verification_code" DROP CONSTRAINT "FK_407501e57fa62e095e0cead8de5"`);
        await queryRunner.query(`DROP TABLE "color_preference"`);
        await queryRunner.query(`DROP INDEX "public"."magic_link_token_digest_uq"`);
        await queryRunner.query(`DROP INDEX "public"."magic_link_token_user_idx"`);
        await queryRunner.query(`DROP TABLE "magic_link_token"`);
        await queryRunner.query(`DROP INDEX "public"."temporary_password_user_idx"`);
        await queryRunner.query(`DROP TABLE "temporary_password"`);
        await queryRunner.query(`DROP TABLE "email_blocklist_entry"`);
        await queryRunner.query(`DROP TABLE "user_state"`);
        await queryRunner.query(`DROP INDEX "public"."email_verification_code_user_idx"`);
        await queryRunner.query(`DROP TABLE "email_verification_code"`);
        await queryRunner.query(`DROP INDEX "public"."user_account_registration_ip_idx"`);
        await queryRunner.query(`DROP INDEX "public"."user_account_idp_subject_uq"`);
        await queryRunner.query(`DROP INDEX "public"."user_account_email_uq"`);
        await queryRunner.query(`DROP TABLE "user_account"`);
    }

}
