import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Team messaging (issue 26): which messaging-server user each Ledgerline user is, their sealed
 * personal access token, and each organization's team.
 */
export class ChatLinks1796600000000 implements MigrationInterface {
    name = 'ChatLinks1796600000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "chat_user" ("user_id" uuid NOT NULL, "chat_user_id" character varying(64) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_be3b9b7b5948d1408017103a97b" UNIQUE ("chat_user_id"), CONSTRAINT "PK_c2d1ec937246fe834e099f4a159" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`CREATE TABLE "chat_token" ("user_id" uuid NOT NULL, "token_id" character varying(64) NOT NULL, "token_ciphertext" text NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_31226ad2253490934b8acf25a38" PRIMARY KEY ("user_id"))`);
        await queryRunner.query(`CREATE TABLE "chat_team" ("organization_id" uuid NOT NULL, "team_id" character varying(64) NOT NULL, "team_name" character varying(64) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_306fbe3ea5c4b16952dcf68b3c1" UNIQUE ("team_id"), CONSTRAINT "PK_4801f3d1b71ab6f36752810eb5d" PRIMARY KEY ("organization_id"))`);
        await queryRunner.query(`ALTER TABLE "chat_user" ADD CONSTRAINT "FK_c2d1ec937246fe834e099f4a159" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "chat_token" ADD CONSTRAINT "FK_31226ad2253490934b8acf25a38" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "chat_team" ADD CONSTRAINT "FK_4801f3d1b71ab6f36752810eb5d" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "chat_team" DROP CONSTRAINT "FK_4801f3d1b71ab6f36752810eb5d"`);
        await queryRunner.query(`ALTER TABLE "chat_token" DROP CONSTRAINT "FK_31226ad2253490934b8acf25a38"`);
        await queryRunner.query(`ALTER TABLE "chat_user" DROP CONSTRAINT "FK_c2d1ec937246fe834e099f4a159"`);
        await queryRunner.query(`DROP TABLE "chat_team"`);
        await queryRunner.query(`DROP TABLE "chat_token"`);
        await queryRunner.query(`DROP TABLE "chat_user"`);
    }
}
