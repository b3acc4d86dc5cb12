import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Each claim of an idempotency key carries its own id: a request whose lease lapsed (its claim
 * taken over by a retry) can no longer store its answer over the retry's claim, renew it or
 * release it.
 */
export class IdempotencyClaimId1795950000000 implements MigrationInterface {
    name = 'IdempotencyClaimId1795950000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "idempotency_key" ADD "claim_id" uuid`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "idempotency_key" DROP COLUMN "claim_id"`);
    }

}
