import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 35: a referral credit redemption is reserved in the ledger before the billing provider
 * is called (outside any transaction), and settled by its answer: applied, reversed, or pending
 * until the credit-redemption queue sends it again with the same id.
 */
export class CreditRedemptions1797500000002 implements MigrationInterface {
    name = 'CreditRedemptions1797500000002'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "credit_redemption" ("id" uuid NOT NULL, "entity_id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "amount" numeric(16,2) NOT NULL, "currency" character(3) NOT NULL, "state" character varying(20) NOT NULL DEFAULT 'pending', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "settled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a2c90cc36a608861ce6e502896c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "credit_redemption_pending_idx" ON "credit_redemption" ("entity_id", "created") WHERE state = 'pending'`);
        await queryRunner.query(`ALTER TABLE "credit_redemption" ADD CONSTRAINT "FK_a4e885f3ac2b481c4f9cb3d472f" FOREIGN KEY ("entity_id") REFERENCES "entity"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credit_redemption" ADD CONSTRAINT "FK_7f5174b4d2a2e7d30078a2bcea2" FOREIGN KEY ("subscription_id") REFERENCES "billing_subscription"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "credit_redemption" DROP CONSTRAINT "FK_7f5174b4d2a2e7d30078a2bcea2"`);
        await queryRunner.query(`ALTER TABLE "credit_redemption" DROP CONSTRAINT "FK_a4e885f3ac2b481c4f9cb3d472f"`);
        await queryRunner.query(`DROP INDEX "public"."credit_redemption_pending_idx"`);
        await queryRunner.query(`DROP TABLE "credit_redemption"`);
    }
}
