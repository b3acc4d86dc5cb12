import { MigrationInterface, QueryRunner } from "typeorm";

export class EntitiesAndProfiles1795254310903 implements MigrationInterface {
    name = 'EntitiesAndProfiles1795254310903'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "profile" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid, "first_name" character varying(100), "last_name" character varying(100), "phone" character varying(40), "title" character varying(120), "avatar_file_id" uuid, "locale" character varying(35), "timezone" character varying(64), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3dd8bfc97e4a77c70971591bdcb" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "entity" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kind" character varying(20) NOT NULL, "name" character varying(200) NOT NULL, "email" character varying(320), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_50a7741b415bc585fcf9c984332" PRIMARY KEY ("id"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "entity"`);
        await queryRunner.query(`DROP TABLE "profile"`);
    }

}
