import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * System accounts (issue 24): the service's own actors (a gateway hook's), which never log in and
 * act only through sessions the service mints for them.
 */
export class SystemAccounts1796800000000 implements MigrationInterface {
    name = 'SystemAccounts1796800000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_account" ADD "system" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "user_account" DROP COLUMN "system"`);
    }
}
