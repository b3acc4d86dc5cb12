import { MigrationInterface, QueryRunner } from "typeorm";

export class ArchitectureAndHardening1795439415026 implements MigrationInterface {
    name = 'ArchitectureAndHardening1795439415026'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "outbox_event" ADD "description" text`);
        await queryRunner.query(`ALTER TABLE "outbox_event" ADD "unrouted_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "entity" ADD "organization_id" uuid`);
        await queryRunner.query(`ALTER TABLE "entity" ADD "owner_user_id" uuid`);
        await queryRunner.query(`ALTER TABLE "organization" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "invitation" ADD "declined_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "entity_organization_idx" ON "entity" ("organization_id") `);
        await queryRunner.query(`CREATE INDEX "entity_owner_user_idx" ON "entity" ("owner_user_id") `);
        await queryRunner.query(`CREATE INDEX "invitation_email_idx" ON "invitation" ("email") `);
        // Whose entity is it: the permission guard resolves /v1/entity/:entity from these columns.
        await queryRunner.query(`UPDATE "entity" e SET "organization_id" = o."id" FROM "organization" o WHERE o."entity_id" = e."id"`);
        await queryRunner.query(`UPDATE "entity" e SET "owner_user_id" = u."id" FROM "user_account" u WHERE u."entity_id" = e."id"`);
        // The relay skips events waiting for a missing consumer (TypeORM does not diff index predicates).
        await queryRunner.query(`DROP INDEX "public"."outbox_event_pending_idx"`);
        await queryRunner.query(`CREATE INDEX "outbox_event_pending_idx" ON "outbox_event" ("sequence") WHERE relayed_at IS NULL AND unrouted_at IS NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."outbox_event_pending_idx"`);
        await queryRunner.query(`CREATE INDEX "outbox_event_pending_idx" ON "outbox_event" ("sequence") WHERE relayed_at IS NULL`);
        await queryRunner.query(`DROP INDEX "public"."invitation_email_idx"`);
        await queryRunner.query(`DROP INDEX "public"."entity_owner_user_idx"`);
        await queryRunner.query(`DROP INDEX "public"."entity_organization_idx"`);
        await queryRunner.query(`ALTER TABLE "invitation" DROP COLUMN "declined_at"`);
        await queryRunner.query(`ALTER TABLE "organization" DROP COLUMN "deleted_at"`);
        await queryRunner.query(`ALTER TABLE "entity" DROP COLUMN "owner_user_id"`);
        await queryRunner.query(`ALTER TABLE "entity" DROP COLUMN "organization_id"`);
        await queryRunner.query(`ALTER TABLE "outbox_event" DROP COLUMN "unrouted_at"`);
        await queryRunner.query(`ALTER TABLE "outbox_event" DROP COLUMN "description"`);
    }

}
