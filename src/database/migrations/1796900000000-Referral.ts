import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The referral program (issue 25): users' own codes, who referred whom, referral invitations,
 * reward cards, referred companies, and the credit ledger: an append-only list of entries per
 * entity (its balance their sum) and the account row movements out of an entity lock.
 */
export class Referral1796900000000 implements MigrationInterface {
    name = 'Referral1796900000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "reward_card" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "invitee_user_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "value" numeric(16,2) NOT NULL, "currency" character(3) NOT NULL, "revealed_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_93ece1fedf7b30ce689387c8c1a" UNIQUE ("invitee_user_id"), CONSTRAINT "PK_c6fd89312e0b60ba1ca8047c538" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "reward_card_user_idx" ON "reward_card" ("user_id")`);
        await queryRunner.query(`CREATE TABLE "referred_company" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "website" character varying(2048), "website_key" character varying(255), "contact_email" character varying(320) NOT NULL, "note" text, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e91b988fe459d7505c40d54565a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "referred_company_contact_uq" ON "referred_company" ("user_id", "contact_email")`);
        await queryRunner.query(`CREATE UNIQUE INDEX "referred_company_website_uq" ON "referred_company" ("user_id", "website_key") WHERE website_key IS NOT NULL`);
        await queryRunner.query(`CREATE TABLE "referral_invitation" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "referrer_user_id" uuid NOT NULL, "email" character varying(320) NOT NULL, "message" text, "state" character varying(20) NOT NULL DEFAULT 'sent', "invitee_user_id" uuid, "send_count" integer NOT NULL DEFAULT '1', "last_sent_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_66d3d0fa24bac75f4a17e39fd32" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "referral_invitation_email_idx" ON "referral_invitation" ("email")`);
        await queryRunner.query(`CREATE UNIQUE INDEX "referral_invitation_referrer_email_uq" ON "referral_invitation" ("referrer_user_id", "email")`);
        await queryRunner.query(`CREATE TABLE "referral_code" ("user_id" uuid NOT NULL, "code" character varying(32) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_e2228930b1cc8b983445357b1b8" UNIQUE ("code"), CONSTRAINT "PK_36def1f364991ac7a8eecfd6c08" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`CREATE TABLE "credit_entry" ("id" uuid NOT NULL, "sequence" BIGSERIAL NOT NULL, "entity_id" uuid NOT NULL, "kind" character varying(20) NOT NULL, "amount" numeric(16,2) NOT NULL, "currency" character(3) NOT NULL, "movement_id" uuid NOT NULL, "counterparty_entity_id" uuid, "actor_user_id" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_05b1d62338497046115e3893f9f" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "credit_entry_entity_idx" ON "credit_entry" ("entity_id", "sequence")`);
        await queryRunner.query(`CREATE TABLE "credit_account" ("entity_id" uuid NOT NULL, "movements" integer NOT NULL DEFAULT '0', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ab4cf04cc0592876de5f32de7eb" PRIMARY KEY ("entity_id"))`);
        await queryRunner.query(`CREATE TABLE "referral_link" ("invitee_user_id" uuid NOT NULL, "referrer_user_id" uuid NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4cc48dd8f39fd18adb3a8bc9131" PRIMARY KEY ("invitee_user_id"))`);
        await queryRunner.query(`CREATE INDEX "referral_link_referrer_idx" ON "referral_link" ("referrer_user_id")`);
        await queryRunner.query(`ALTER TABLE "reward_card" ADD CONSTRAINT "FK_0ff5b5c9e4cb5cb97ea3012f7bf" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "reward_card" ADD CONSTRAINT "FK_93ece1fedf7b30ce689387c8c1a" FOREIGN KEY ("invitee_user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "referred_company" ADD CONSTRAINT "FK_0f7356f44ccbd2212bcd6f24c9e" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "referral_invitation" ADD CONSTRAINT "FK_f6f3ec40f4042eb57be1dc1f37c" FOREIGN KEY ("referrer_user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "referral_code" ADD CONSTRAINT "FK_36def1f364991ac7a8eecfd6c08" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credit_account" ADD CONSTRAINT "FK_ab4cf04cc0592876de5f32de7eb" FOREIGN KEY ("entity_id") REFERENCES "entity"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "referral_link" ADD CONSTRAINT "FK_4cc48dd8f39fd18adb3a8bc9131" FOREIGN KEY ("invitee_user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "referral_link" ADD CONSTRAINT "FK_0d7d5b7caa0cdcbac68d5c63479" FOREIGN KEY ("referrer_user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        // The ledger is append-only: PostgreSQL itself refuses to change or remove an entry.
        await queryRunner.query(`CREATE FUNCTION credit_entry_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'credit_entry is append-only: % refused (record a correcting entry instead)', TG_OP
                    USING ERRCODE = 'restrict_violation';
            END $$`);
        await queryRunner.query(`CREATE TRIGGER credit_entry_no_change BEFORE UPDATE OR DELETE ON "credit_entry" FOR EACH ROW EXECUTE FUNCTION credit_entry_append_only()`);
        await queryRunner.query(`CREATE TRIGGER credit_entry_no_truncate BEFORE TRUNCATE ON "credit_entry" FOR EACH STATEMENT EXECUTE FUNCTION credit_entry_append_only()`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER credit_entry_no_truncate ON "credit_entry"`);
        await queryRunner.query(`DROP TRIGGER credit_entry_no_change ON "credit_entry"`);
        await queryRunner.query(`DROP FUNCTION credit_entry_append_only()`);
        await queryRunner.query(`ALTER TABLE "referral_link" DROP CONSTRAINT "FK_0d7d5b7caa0cdcbac68d5c63479"`);
        await queryRunner.query(`ALTER TABLE "referral_link" DROP CONSTRAINT "FK_4cc48dd8f39fd18adb3a8bc9131"`);
        await queryRunner.query(`ALTER TABLE "credit_account" DROP CONSTRAINT "FK_ab4cf04cc0592876de5f32de7eb"`);
        await queryRunner.query(`ALTER TABLE "referral_code" DROP CONSTRAINT "FK_36def1f364991ac7a8eecfd6c08"`);
        await queryRunner.query(`ALTER TABLE "referral_invitation" DROP CONSTRAINT "FK_f6f3ec40f4042eb57be1dc1f37c"`);
        await queryRunner.query(`ALTER TABLE "referred_company" DROP CONSTRAINT "FK_0f7356f44ccbd2212bcd6f24c9e"`);
        await queryRunner.query(`ALTER TABLE "reward_card" DROP CONSTRAINT "FK_93ece1fedf7b30ce689387c8c1a"`);
        await queryRunner.query(`ALTER TABLE "reward_card" DROP CONSTRAINT "FK_0ff5b5c9e4cb5cb97ea3012f7bf"`);
        await queryRunner.query(`DROP INDEX "public"."referral_link_referrer_idx"`);
        await queryRunner.query(`DROP INDEX "public"."credit_entry_entity_idx"`);
        await queryRunner.query(`DROP INDEX "public"."referral_invitation_referrer_email_uq"`);
        await queryRunner.query(`DROP INDEX "public"."referral_invitation_email_idx"`);
        await queryRunner.query(`DROP INDEX "public"."referred_company_website_uq"`);
        await queryRunner.query(`DROP INDEX "public"."referred_company_contact_uq"`);
        await queryRunner.query(`DROP INDEX "public"."reward_card_user_idx"`);
        await queryRunner.query(`DROP TABLE "referral_link"`);
        await queryRunner.query(`DROP TABLE "credit_account"`);
        await queryRunner.query(`DROP TABLE "credit_entry"`);
        await queryRunner.query(`DROP TABLE "referral_code"`);
        await queryRunner.query(`DROP TABLE "referral_invitation"`);
        await queryRunner.query(`DROP TABLE "referred_company"`);
        await queryRunner.query(`DROP TABLE "reward_card"`);
    }
}
