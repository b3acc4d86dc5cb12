import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 35: no transaction or lock is held across a billing provider call. A signup claims the
 * organization's signup (one row per organization, with the provider's uniqueness token) before
 * its call, instead of holding an advisory lock across it; a seat count push leases its
 * organization's count row for the length of its call, instead of holding an advisory lock.
 */
export class BillingCallsOutsideTransactions1797500000001 implements MigrationInterface {
    name = 'BillingCallsOutsideTransactions1797500000001'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "billing_signup_claim" ("organization_id" uuid NOT NULL, "token" character varying(100) NOT NULL, "holder" uuid, "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1b84f0454795c554a64d2ef104e" PRIMARY KEY ("organization_id"))`);
        await queryRunner.query(`ALTER TABLE "billing_count_sync" ADD "push_lease" uuid`);
        await queryRunner.query(`ALTER TABLE "billing_count_sync" ADD "push_lease_until" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "billing_signup_claim" ADD CONSTRAINT "FK_1b84f0454795c554a64d2ef104e" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "billing_signup_claim" DROP CONSTRAINT "FK_1b84f0454795c554a64d2ef104e"`);
        await queryRunner.query(`ALTER TABLE "billing_count_sync" DROP COLUMN "push_lease_until"`);
        await queryRunner.query(`ALTER TABLE "billing_count_sync" DROP COLUMN "push_lease"`);
        await queryRunner.query(`DROP TABLE "billing_signup_claim"`);
    }
}
