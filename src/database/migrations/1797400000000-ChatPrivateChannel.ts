import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 35: an organization's team is claimed with a random name before it is made (`team_id`
 * null until then), and has a private channel for the agent's replies, also named at random
 * (teams made before get their name here, and the channel on their next use).
 */
export class ChatPrivateChannel1797400000000 implements MigrationInterface {
    name = 'ChatPrivateChannel1797400000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "chat_team" ALTER COLUMN "team_id" DROP NOT NULL`);
        await queryRunner.query(`ALTER TABLE "chat_team" ADD "private_channel_name" character varying(64)`);
        await queryRunner.query(`UPDATE "chat_team" SET "private_channel_name" = 'cap-table-' || replace(gen_random_uuid()::text, '-', '')`);
        await queryRunner.query(`ALTER TABLE "chat_team" ALTER COLUMN "private_channel_name" SET NOT NULL`);
        await queryRunner.query(`ALTER TABLE "chat_team" ADD "private_channel_id" character varying(64)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "chat_team" DROP COLUMN "private_channel_id"`);
        await queryRunner.query(`ALTER TABLE "chat_team" DROP COLUMN "private_channel_name"`);
        await queryRunner.query(`DELETE FROM "chat_team" WHERE "team_id" IS NULL`);
        await queryRunner.query(`ALTER TABLE "chat_team" ALTER COLUMN "team_id" SET NOT NULL`);
    }
}
