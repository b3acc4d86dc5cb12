import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * AI-assisted onboardings (issue 23): the founder's e-mail and description, the draft the model
 * made of them with its questions and the founder's corrections, the user who linked it and the
 * organization its build created.
 */
export class AgentOnboardings1796500000000 implements MigrationInterface {
    name = 'AgentOnboardings1796500000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "agent_onboarding" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" character varying(320) NOT NULL, "initial_prompt" text NOT NULL, "status" character varying(12) NOT NULL, "analysis_run" uuid, "analysis_error" character varying(500), "linked_user_id" uuid, "draft" jsonb, "questions" jsonb NOT NULL DEFAULT '[]', "corrections" jsonb NOT NULL DEFAULT '[]', "organization_id" uuid, "setup_result" jsonb, "welcome_message" text, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c8b83789165db2112fcd22ddbf7" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "agent_onboarding_created_idx" ON "agent_onboarding" ("created")`);
        await queryRunner.query(`CREATE INDEX "agent_onboarding_user_idx" ON "agent_onboarding" ("linked_user_id", "created")`);
        await queryRunner.query(`ALTER TABLE "agent_onboarding" ADD CONSTRAINT "FK_ee931bdecb9622786856e9aa7d2" FOREIGN KEY ("linked_user_id") REFERENCES "user_account"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "agent_onboarding" ADD CONSTRAINT "FK_d93f412e4fb2c4bfd0f3134539c" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "agent_onboarding" DROP CONSTRAINT "FK_d93f412e4fb2c4bfd0f3134539c"`);
        await queryRunner.query(`ALTER TABLE "agent_onboarding" DROP CONSTRAINT "FK_ee931bdecb9622786856e9aa7d2"`);
        await queryRunner.query(`DROP TABLE "agent_onboarding"`);
    }
}
