import { MigrationInterface, QueryRunner } from "typeorm";

export class ListIndexes1795444566801 implements MigrationInterface {
    name = 'ListIndexes1795444566801'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "member_org_created_idx" ON "member" ("organization_id", "created", "id") `);
        await queryRunner.query(`CREATE INDEX "equity_transaction_org_effective_idx" ON "equity_transaction" ("organization_id", "effective_date") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."equity_transaction_org_effective_idx"`);
        await queryRunner.query(`DROP INDEX "public"."member_org_created_idx"`);
    }

}
