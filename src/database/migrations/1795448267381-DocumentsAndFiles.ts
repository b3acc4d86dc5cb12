import { MigrationInterface, QueryRunner } from "typeorm";

export class DocumentsAndFiles1795448267381 implements MigrationInterface {
    name = 'DocumentsAndFiles1795448267381'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "stored_file" ("id" uuid NOT NULL, "organization_id" uuid, "owner_user_id" uuid, "purpose" character varying(20) NOT NULL, "name" character varying(255) NOT NULL, "size" integer NOT NULL, "content_type" character varying(150) NOT NULL, "sha256" character(64) NOT NULL, "storage_key" character varying(300) NOT NULL, "uploaded_by_user_id" uuid, "plan_id" uuid, "holding_id" uuid, "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e140967af84027b493a3ff04fbb" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "stored_file_holding_idx" ON "stored_file" ("holding_id") `);
        await queryRunner.query(`CREATE INDEX "stored_file_plan_idx" ON "stored_file" ("plan_id") `);
        await queryRunner.query(`CREATE INDEX "stored_file_org_idx" ON "stored_file" ("organization_id", "created", "id") `);
        await queryRunner.query(`CREATE TABLE "document" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "name_key" character varying(255) NOT NULL, "type" character varying(10) NOT NULL, "parent_folder_id" uuid, "parent_key" uuid NOT NULL, "file_id" uuid, "created_by_user_id" uuid, "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e57d3357f83f3cdc0acffc3d777" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "document_name_uq" ON "document" ("organization_id", "parent_key", "name_key") WHERE deleted_at IS NULL`);
        await queryRunner.query(`CREATE INDEX "document_org_parent_idx" ON "document" ("organization_id", "parent_folder_id") `);
        await queryRunner.query(`ALTER TABLE "stored_file" ADD CONSTRAINT "FK_fbe9a0cc28af7be90951945bca2" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "document" ADD CONSTRAINT "FK_1407fa9ccce42ac1417c4620db8" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "document" ADD CONSTRAINT "FK_b9e7d1916962b81f2c3b5b54804" FOREIGN KEY ("file_id") REFERENCES "stored_file"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "document" DROP CONSTRAINT "FK_b9e7d1916962b81f2c3b5b54804"`);
        await queryRunner.query(`ALTER TABLE "document" DROP CONSTRAINT "FK_1407fa9ccce42ac1417c4620db8"`);
        await queryRunner.query(`ALTER TABLE "stored_file" DROP CONSTRAINT "FK_fbe9a0cc28af7be90951945bca2"`);
        await queryRunner.query(`DROP INDEX "public"."document_org_parent_idx"`);
        await queryRunner.query(`DROP INDEX "public"."document_name_uq"`);
        await queryRunner.query(`DROP TABLE "document"`);
        await queryRunner.query(`DROP INDEX "public"."stored_file_org_idx"`);
        await queryRunner.query(`DROP INDEX "public"."stored_file_plan_idx"`);
        await queryRunner.query(`DROP INDEX "public"."stored_file_holding_idx"`);
        await queryRunner.query(`DROP TABLE "stored_file"`);
    }

}
