import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The agent's conversations (issue 23): one per user chat, one main per organization (unique), one
 * per hook session key; their messages as content blocks; the steps waiting for a confirmation.
 */
export class AgentConversations1796400000000 implements MigrationInterface {
    name = 'AgentConversations1796400000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "agent_conversation" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "user_id" uuid, "kind" character varying(10) NOT NULL, "session_key" character varying(200), "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_85b305e5d43ef19be10591ee5b6" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "agent_conversation_user_idx" ON "agent_conversation" ("user_id", "organization_id")`);
        await queryRunner.query(`CREATE UNIQUE INDEX "agent_conversation_hook_uq" ON "agent_conversation" ("organization_id", "session_key") WHERE kind = 'hook'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "agent_conversation_main_uq" ON "agent_conversation" ("organization_id") WHERE kind = 'main'`);
        await queryRunner.query(`CREATE TABLE "agent_message" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "sequence" BIGSERIAL NOT NULL, "conversation_id" uuid NOT NULL, "role" character varying(10) NOT NULL, "content" jsonb NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f50e019467982fe7e2666efd98d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "agent_message_conversation_idx" ON "agent_message" ("conversation_id", "sequence")`);
        await queryRunner.query(`CREATE TABLE "agent_step" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "conversation_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "proposed_by" uuid, "tool_use_id" character varying(100) NOT NULL, "tool" character varying(60) NOT NULL, "kind" character varying(12) NOT NULL, "input" jsonb NOT NULL, "summary" character varying(500) NOT NULL, "status" character varying(10) NOT NULL, "decided_by" uuid, "decided_at" TIMESTAMP WITH TIME ZONE, "result" jsonb, "error" character varying(1000), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6e64fb0b21a89199f32e2d6211e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "agent_step_conversation_idx" ON "agent_step" ("conversation_id", "created")`);
        await queryRunner.query(`ALTER TABLE "agent_conversation" ADD CONSTRAINT "FK_0b00d9bf1122da70d0ccc5ef8ca" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "agent_message" ADD CONSTRAINT "FK_b31964d761d6fba6f25668c1d8a" FOREIGN KEY ("conversation_id") REFERENCES "agent_conversation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "agent_step" ADD CONSTRAINT "FK_68502cb5dd2baa7a002e4ed8fc0" FOREIGN KEY ("conversation_id") REFERENCES "agent_conversation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "agent_step" DROP CONSTRAINT "FK_68502cb5dd2baa7a002e4ed8fc0"`);
        await queryRunner.query(`ALTER TABLE "agent_message" DROP CONSTRAINT "FK_b31964d761d6fba6f25668c1d8a"`);
        await queryRunner.query(`ALTER TABLE "agent_conversation" DROP CONSTRAINT "FK_0b00d9bf1122da70d0ccc5ef8ca"`);
        await queryRunner.query(`DROP TABLE "agent_step"`);
        await queryRunner.query(`DROP TABLE "agent_message"`);
        await queryRunner.query(`DROP TABLE "agent_conversation"`);
    }
}
