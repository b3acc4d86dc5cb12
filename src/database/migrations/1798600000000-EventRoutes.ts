import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 38: the relay routes by `event_route`, rows the migrations write, rather than by each
 * instance's own code, so an instance of an older version never relays an event without a route
 * a newer one added: it leaves the event pending for an instance that consumes every queue of
 * the event's type. The rows are the routes the code declared at this version (`@OnDomainEvent`
 * over every event type); a new consumer or event type adds its rows in a migration of its own.
 *
 * `unrouted_at` goes: whether an event can be routed depends on the instance asking, and each
 * instance looks again every tick (the events of types it cannot route are simply not selected).
 */
export class EventRoutes1798600000000 implements MigrationInterface {
    name = 'EventRoutes1798600000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "event_route" ("event_type" character varying(100) NOT NULL, "queue" character varying(60) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_event_route" PRIMARY KEY ("event_type", "queue"))`);
        await queryRunner.query(`INSERT INTO "event_route" ("event_type", "queue") VALUES
            ('billing.member_count_changed', 'billing-counts'),
            ('billing.shareholder_count_changed', 'billing-counts'),
            ('capital_change.created', 'activity'),
            ('capital_change.updated', 'activity'),
            ('document.deleted', 'activity'),
            ('document.deleted', 'webhooks'),
            ('document.moved', 'activity'),
            ('document.moved', 'webhooks'),
            ('document.uploaded', 'activity'),
            ('document.uploaded', 'webhooks'),
            ('folder.created', 'activity'),
            ('folder.created', 'webhooks'),
            ('holding.converted', 'activity'),
            ('holding.converted', 'webhooks'),
            ('holding.created', 'activity'),
            ('holding.created', 'webhooks'),
            ('holding.deleted', 'activity'),
            ('holding.deleted', 'webhooks'),
            ('holding.repaid', 'activity'),
            ('holding.repaid', 'webhooks'),
            ('holding.updated', 'activity'),
            ('holding.updated', 'webhooks'),
            ('legend.created', 'activity'),
            ('legend.deleted', 'activity'),
            ('legend.updated', 'activity'),
            ('member.added', 'activity'),
            ('member.added', 'chat'),
            ('member.added', 'webhooks'),
            ('member.invited', 'activity'),
            ('member.invited', 'webhooks'),
            ('member.removed', 'activity'),
            ('member.removed', 'chat'),
            ('member.removed', 'webhooks'),
            ('member.updated', 'activity'),
            ('member.updated', 'chat'),
            ('member.updated', 'webhooks'),
            ('option.exercise_request_rejected', 'activity'),
            ('option.exercise_requested', 'activity'),
            ('option.exercise_requested', 'webhooks'),
            ('option.exercised', 'activity'),
            ('option.exercised', 'webhooks'),
            ('organization.created', 'activity'),
            ('organization.created', 'webhooks'),
            ('organization.deleted', 'activity'),
            ('organization.updated', 'activity'),
            ('organization.updated', 'webhooks'),
            ('payment.failed', 'activity'),
            ('payment.failed', 'webhooks'),
            ('payment.succeeded', 'activity'),
            ('payment.succeeded', 'webhooks'),
            ('plan.created', 'activity'),
            ('plan.deleted', 'activity'),
            ('plan.updated', 'activity'),
            ('role.created', 'activity'),
            ('role.created', 'webhooks'),
            ('role.deleted', 'activity'),
            ('role.deleted', 'chat'),
            ('role.deleted', 'webhooks'),
            ('role.updated', 'activity'),
            ('role.updated', 'chat'),
            ('role.updated', 'webhooks'),
            ('security.created', 'activity'),
            ('security.created', 'webhooks'),
            ('security.deleted', 'activity'),
            ('security.deleted', 'webhooks'),
            ('security.split', 'activity'),
            ('security.updated', 'activity'),
            ('security.updated', 'webhooks'),
            ('shareholding.created', 'activity'),
            ('shareholding.created', 'webhooks'),
            ('shareholding.imported', 'activity'),
            ('shareholding.repurchased', 'activity'),
            ('shareholding.repurchased', 'webhooks'),
            ('shareholding.transferred', 'activity'),
            ('shareholding.transferred', 'webhooks'),
            ('shareholding.updated', 'activity'),
            ('shareholding.updated', 'webhooks'),
            ('shareholding.voided', 'activity'),
            ('shareholding.voided', 'webhooks'),
            ('subscription.cancelled', 'activity'),
            ('subscription.cancelled', 'webhooks'),
            ('subscription.created', 'activity'),
            ('subscription.created', 'referral'),
            ('subscription.created', 'webhooks'),
            ('user.registered', 'referral'),
            ('valuation.created', 'activity'),
            ('valuation.created', 'webhooks'),
            ('valuation.updated', 'activity'),
            ('valuation.updated', 'webhooks'),
            ('vesting_schedule.created', 'activity'),
            ('vesting_schedule.deleted', 'activity'),
            ('vesting_schedule.updated', 'activity'),
            ('webhook.disabled', 'activity')`);
        await queryRunner.query(`DROP INDEX "public"."outbox_event_pending_idx"`);
        await queryRunner.query(`ALTER TABLE "outbox_event" DROP COLUMN "unrouted_at"`);
        await queryRunner.query(`CREATE INDEX "outbox_event_pending_idx" ON "outbox_event" ("sequence") WHERE relayed_at IS NULL`);
        // The re-relay's scan: events relayed a while ago, oldest hand-over first.
        await queryRunner.query(`CREATE INDEX "outbox_event_relayed_idx" ON "outbox_event" ("relayed_at") WHERE relayed_at IS NOT NULL`);
        // Markers are now kept 30 days (every consumer leaves one per event it is handed).
        await queryRunner.query(`CREATE INDEX "processed_event_processed_at_idx" ON "processed_event" ("processed_at") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."processed_event_processed_at_idx"`);
        await queryRunner.query(`DROP INDEX "public"."outbox_event_relayed_idx"`);
        await queryRunner.query(`DROP INDEX "public"."outbox_event_pending_idx"`);
        await queryRunner.query(`ALTER TABLE "outbox_event" ADD "unrouted_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "outbox_event_pending_idx" ON "outbox_event" ("sequence") WHERE relayed_at IS NULL AND unrouted_at IS NULL`);
        await queryRunner.query(`DROP TABLE "event_route"`);
    }
}
