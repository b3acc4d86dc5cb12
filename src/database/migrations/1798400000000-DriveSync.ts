import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 37: the cloud-drive sync's tables, owned by documents. An organization's one drive
 * connection (its grant sealed), the folders it syncs into the data room (soft-deleted, one live
 * per folder and target), their runs (the sync history) and the files each brought in.
 */
export class DriveSync1798400000000 implements MigrationInterface {
    name = 'DriveSync1798400000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "drive_connection" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "email" character varying(320), "grant_ciphertext" text, "active" boolean NOT NULL DEFAULT true, "last_sync_at" TIMESTAMP WITH TIME ZONE, "sync_error" text, "connected_by_user_id" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_6d24bae9f2c20efd5159184aa11" UNIQUE ("organization_id"), CONSTRAINT "PK_ef1d6ab0715ce9203488f09e628" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "drive_sync_configuration" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "idp_folder_id" character varying(128) NOT NULL, "idp_folder_name" character varying(255) NOT NULL, "target_data_room_path" character varying(1024) NOT NULL, "sync_enabled" boolean NOT NULL DEFAULT true, "sync_subfolders" boolean NOT NULL DEFAULT false, "file_type_filter" character varying(500) NOT NULL DEFAULT '', "last_sync_at" TIMESTAMP WITH TIME ZONE, "sync_error" text, "created_by_user_id" uuid NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9c0bdb4863c2c84fbdf775fc7cb" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "drive_sync_configuration_uq" ON "drive_sync_configuration" ("organization_id", "idp_folder_id", "target_data_room_path") WHERE deleted_at IS NULL`);
        await queryRunner.query(`CREATE TABLE "drive_sync_history" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "configuration_id" uuid NOT NULL, "status" character varying(10) NOT NULL, "error_message" text, "files_processed" integer NOT NULL DEFAULT '0', "files_added" integer NOT NULL DEFAULT '0', "files_updated" integer NOT NULL DEFAULT '0', "files_skipped" integer NOT NULL DEFAULT '0', "files_failed" integer NOT NULL DEFAULT '0', "triggered_by_user_id" uuid, "triggered_at" TIMESTAMP WITH TIME ZONE NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE, "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b2f68495d4d8f132595e42e8ffc" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "drive_sync_history_org_idx" ON "drive_sync_history" ("organization_id", "triggered_at") `);
        await queryRunner.query(`CREATE INDEX "drive_sync_history_config_idx" ON "drive_sync_history" ("configuration_id", "triggered_at") `);
        await queryRunner.query(`CREATE TABLE "drive_synced_file" ("configuration_id" uuid NOT NULL, "idp_file_id" character varying(128) NOT NULL, "document_id" uuid NOT NULL, "change_key" character varying(255) NOT NULL, "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0cd49df85f72101a4783427653a" PRIMARY KEY ("configuration_id", "idp_file_id"))`);
        await queryRunner.query(`ALTER TABLE "drive_connection" ADD CONSTRAINT "FK_6d24bae9f2c20efd5159184aa11" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "drive_sync_configuration" ADD CONSTRAINT "FK_52d762eecde8cef515de6f1cb61" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "drive_sync_history" ADD CONSTRAINT "FK_235f0ec50efd53ecf42447a418e" FOREIGN KEY ("configuration_id") REFERENCES "drive_sync_configuration"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "drive_synced_file" ADD CONSTRAINT "FK_976932659e97c3e090089cbf69f" FOREIGN KEY ("configuration_id") REFERENCES "drive_sync_configuration"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "drive_synced_file"`);
        await queryRunner.query(`DROP TABLE "drive_sync_history"`);
        await queryRunner.query(`DROP TABLE "drive_sync_configuration"`);
        await queryRunner.query(`DROP TABLE "drive_connection"`);
    }
}
