import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * `Idempotency-Key` (issue 20): the first answer to a write of the cap table or an import, kept
 * 24 hours per caller and key with the request it answered, so that a retry gets it again instead
 * of writing twice. The primary key (user, key) is what makes two racing retries one execution.
 */
export class IdempotencyKeys1795765442239 implements MigrationInterface {
    name = 'IdempotencyKeys1795765442239'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "idempotency_key" ("user_id" uuid NOT NULL, "key" character varying(255) NOT NULL, "method" character varying(10) NOT NULL, "path" text NOT NULL, "fingerprint" character(64) NOT NULL, "state" character varying(10) NOT NULL, "status" smallint, "response_body" text, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_de390066dce788f80744a8f6626" PRIMARY KEY ("user_id", "key"))`);
        await queryRunner.query(`CREATE INDEX "idempotency_key_expires_idx" ON "idempotency_key" ("expires_at") `);
        await queryRunner.query(`ALTER TABLE "idempotency_key" ADD CONSTRAINT "FK_b769b270c8c530b20c431bd19d8" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "idempotency_key" DROP CONSTRAINT "FK_b769b270c8c530b20c431bd19d8"`);
        await queryRunner.query(`DROP INDEX "public"."idempotency_key_expires_idx"`);
        await queryRunner.query(`DROP TABLE "idempotency_key"`);
    }

}
