import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The agent's bounds (issue 35): who wrote each message of a conversation (the main one is
 * shared, and other members' messages reach the model marked as theirs), the permission each of
 * its blocks was produced under (a tool's result is withheld from a caller lacking it), and an
 * index for the daily deletion of conversations idle past their retention.
 */
export class AgentBounds1797300000000 implements MigrationInterface {
    name = 'AgentBounds1797300000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "agent_message" ADD "author_id" uuid`);
        await queryRunner.query(`ALTER TABLE "agent_message" ADD "author_name" character varying(200)`);
        await queryRunner.query(`ALTER TABLE "agent_message" ADD "author_role" character varying(100)`);
        await queryRunner.query(`ALTER TABLE "agent_message" ADD "permissions" jsonb`);
        await queryRunner.query(`CREATE INDEX "agent_conversation_updated_idx" ON "agent_conversation" ("updated") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."agent_conversation_updated_idx"`);
        await queryRunner.query(`ALTER TABLE "agent_message" DROP COLUMN "permissions"`);
        await queryRunner.query(`ALTER TABLE "agent_message" DROP COLUMN "author_role"`);
        await queryRunner.query(`ALTER TABLE "agent_message" DROP COLUMN "author_name"`);
        await queryRunner.query(`ALTER TABLE "agent_message" DROP COLUMN "author_id"`);
    }
}
