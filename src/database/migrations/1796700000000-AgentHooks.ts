import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The agent's side of the gateway hooks (issue 24): system events of organizations' main
 * conversations, pending until a heartbeat takes them (an identical pending text once: unique on
 * its MD5, a btree entry of any text's size); each organization's hook actor; the channel a
 * conversation's replies were last posted to.
 */
export class AgentHooks1796700000000 implements MigrationInterface {
    name = 'AgentHooks1796700000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "agent_system_event" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "text" text NOT NULL, "source" character varying(200) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "consumed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_8330ce73bc7e0a955593d662ea0" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "agent_system_event_org_idx" ON "agent_system_event" ("organization_id", "created")`);
        await queryRunner.query(`CREATE UNIQUE INDEX "agent_system_event_pending_uq" ON "agent_system_event" ("organization_id", md5("text")) WHERE consumed_at IS NULL`);
        await queryRunner.query(`ALTER TABLE "agent_system_event" ADD CONSTRAINT "FK_8e8f1391c38f516375baea9b329" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`CREATE TABLE "agent_hook_actor" ("organization_id" uuid NOT NULL, "user_id" uuid NOT NULL, "member_id" uuid NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_9d97ce5f558dd947f25f49afa64" UNIQUE ("user_id"), CONSTRAINT "PK_ee7b9c6f297adaee35460c9d3da" PRIMARY KEY ("organization_id"))`);
        await queryRunner.query(`ALTER TABLE "agent_hook_actor" ADD CONSTRAINT "FK_ee7b9c6f297adaee35460c9d3da" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "agent_hook_actor" ADD CONSTRAINT "FK_9d97ce5f558dd947f25f49afa64" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "agent_conversation" ADD "last_channel" character varying(64)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "agent_conversation" DROP COLUMN "last_channel"`);
        await queryRunner.query(`DROP TABLE "agent_hook_actor"`);
        await queryRunner.query(`ALTER TABLE "agent_system_event" DROP CONSTRAINT "FK_8e8f1391c38f516375baea9b329"`);
        await queryRunner.query(`DROP TABLE "agent_system_event"`);
    }
}
