import { MigrationInterface, QueryRunner } from "typeorm";

export class ShareNumberRange1795449046786 implements MigrationInterface {
    name = 'ShareNumberRange1795449046786'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "security" ALTER COLUMN "next_share_number" TYPE numeric(39,10)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "security" ALTER COLUMN "next_share_number" TYPE numeric(38,10)`);
    }

}
