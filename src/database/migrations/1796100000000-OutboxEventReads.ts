import { MigrationInterface, QueryRunner } from "typeorm";

/** The event list of an organization (issue 21) and the daily clean-up of old outbox rows. */
export class OutboxEventReads1796100000000 implements MigrationInterface {
    name = 'OutboxEventReads1796100000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "outbox_event_organization_idx" ON "outbox_event" ("organization_id", "sequence") `);
        await queryRunner.query(`CREATE INDEX "outbox_event_created_idx" ON "outbox_event" ("created") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."outbox_event_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."outbox_event_organization_idx"`);
    }
}
