import { MigrationInterface, QueryRunner } from "typeorm";

export class ParticipatingClasses1795448569607 implements MigrationInterface {
    name = 'ParticipatingClasses1795448569607'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "security" ADD "participating" boolean NOT NULL DEFAULT false`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "security" DROP COLUMN "participating"`);
    }

}
