import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 37: each organization keeps its documents in one store, the data room or the
 * productivity-suite store (SharePoint/OneDrive through Microsoft Graph), whose index maps our
 * document ids to the drive's item ids.
 */
export class DocumentStores1798500000000 implements MigrationInterface {
    name = 'DocumentStores1798500000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "organization" ADD "document_store" character varying(10) NOT NULL DEFAULT 'dataRoom'`);
        await queryRunner.query(`CREATE TABLE "suite_item" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "item_id" character varying(200) NOT NULL, "root" boolean NOT NULL DEFAULT false, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1692cd2c624a8ea1665c939a9ff" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "suite_item_root_uq" ON "suite_item" ("organization_id") WHERE root`);
        await queryRunner.query(`CREATE UNIQUE INDEX "suite_item_item_uq" ON "suite_item" ("item_id") `);
        await queryRunner.query(`ALTER TABLE "suite_item" ADD CONSTRAINT "FK_45cfd36721c5aadb3bd2d9d1d83" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "suite_item" DROP CONSTRAINT "FK_45cfd36721c5aadb3bd2d9d1d83"`);
        await queryRunner.query(`DROP INDEX "public"."suite_item_item_uq"`);
        await queryRunner.query(`DROP INDEX "public"."suite_item_root_uq"`);
        await queryRunner.query(`DROP TABLE "suite_item"`);
        await queryRunner.query(`ALTER TABLE "organization" DROP COLUMN "document_store"`);
    }
}
