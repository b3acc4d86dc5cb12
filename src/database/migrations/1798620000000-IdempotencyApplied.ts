import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `idempotency_key.applied_at`: set in the transaction of a keyed request's write, so a retry
 * after the request's server stopped does not write again.
 */
export class IdempotencyApplied1798620000000 implements MigrationInterface {
  name = 'IdempotencyApplied1798620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_key" ADD "applied_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_key" DROP COLUMN "applied_at"`);
  }
}
