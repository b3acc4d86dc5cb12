import { MigrationInterface, QueryRunner } from "typeorm";

export class ResourceVersions1795441299420 implements MigrationInterface {
    name = 'ResourceVersions1795441299420'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "resource_version" ("organization_id" uuid NOT NULL, "resource" character varying(60) NOT NULL, "version" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_0d5323d31c96a11bbc206d99c4f" PRIMARY KEY ("organization_id", "resource"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "resource_version"`);
    }

}
