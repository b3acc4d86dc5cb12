import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 35: each referral invitation mail sent to an address (its SHA-256), whoever sent it, so
 * that one address receives at most 3 in 30 days.
 */
export class ReferralInvitationMails1797500000000 implements MigrationInterface {
    name = 'ReferralInvitationMails1797500000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "referral_invitation_mail" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "address_hash" character(64) NOT NULL, "sent_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c56c5f3460f40ba03b8191ad7e0" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "referral_invitation_mail_address_idx" ON "referral_invitation_mail" ("address_hash", "sent_at")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."referral_invitation_mail_address_idx"`);
        await queryRunner.query(`DROP TABLE "referral_invitation_mail"`);
    }
}
