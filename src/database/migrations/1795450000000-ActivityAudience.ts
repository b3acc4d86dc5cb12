import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every activity entry gets an audience (issue: the activity log showed the whole cap table to
 * every member): the permission a reader's role needs, and the members it is about, who see it
 * without that permission. Events carry those members from now on (`subject_member_ids`).
 * Existing entries get theirs from their type, as src/activity/activity-audience.ts gives it
 * today (copied here: a migration must not change when that file does), and their members from
 * the record they carry: a member entry's member, a shareholding or grant's holder, an exercise's
 * grant holder. A transfer names two holders, neither of whom may read the other's side: none.
 */
export class ActivityAudience1795450000000 implements MigrationInterface {
  name = 'ActivityAudience1795450000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "outbox_event" ADD "subject_member_ids" uuid array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(
      `ALTER TABLE "activity_action" ADD "audience_permission" character varying(60)`,
    );
    await queryRunner.query(
      `ALTER TABLE "activity_action" ADD "audience_member_ids" uuid array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(`
      UPDATE activity_action SET audience_permission = CASE
        WHEN event_id IS NULL THEN 'canViewOrganization'
        ELSE CASE type
        WHEN 'organization.created' THEN 'canViewOrganization'
        WHEN 'organization.updated' THEN 'canViewOrganization'
        WHEN 'organization.deleted' THEN 'canViewOrganization'
        WHEN 'member.invited' THEN 'canViewMember'
        WHEN 'member.added' THEN 'canViewMember'
        WHEN 'member.updated' THEN 'canViewMember'
        WHEN 'member.removed' THEN 'canViewMember'
        WHEN 'role.created' THEN 'canViewOrganization'
        WHEN 'role.updated' THEN 'canViewOrganization'
        WHEN 'role.deleted' THEN 'canViewOrganization'
        WHEN 'security.created' THEN 'canViewOrganization'
        WHEN 'security.updated' THEN 'canViewOrganization'
        WHEN 'security.deleted' THEN 'canViewOrganization'
        WHEN 'legend.created' THEN 'canViewCapTable'
        WHEN 'legend.updated' THEN 'canViewCapTable'
        WHEN 'legend.deleted' THEN 'canViewCapTable'
        WHEN 'plan.created' THEN 'canViewOrganization'
        WHEN 'plan.updated' THEN 'canViewOrganization'
        WHEN 'plan.deleted' THEN 'canViewOrganization'
        WHEN 'vesting_schedule.created' THEN 'canViewOrganization'
        WHEN 'vesting_schedule.updated' THEN 'canViewOrganization'
        WHEN 'vesting_schedule.deleted' THEN 'canViewOrganization'
        WHEN 'shareholding.created' THEN 'canViewCapitalizationOrSelf'
        WHEN 'shareholding.updated' THEN 'canViewCapitalizationOrSelf'
        WHEN 'shareholding.voided' THEN 'canViewCapitalizationOrSelf'
        WHEN 'shareholding.transferred' THEN 'canViewCapitalizationOrSelf'
        WHEN 'shareholding.imported' THEN 'canViewCapTable'
        WHEN 'holding.created' THEN 'canViewHolding'
        WHEN 'holding.updated' THEN 'canViewHolding'
        WHEN 'holding.deleted' THEN 'canViewHolding'
        WHEN 'holding.converted' THEN 'canViewHolding'
        WHEN 'holding.repaid' THEN 'canViewHolding'
        WHEN 'option.exercise_requested' THEN 'canViewOption'
        WHEN 'option.exercise_request_rejected' THEN 'canViewOption'
        WHEN 'option.exercised' THEN 'canViewOption'
        WHEN 'valuation.created' THEN 'canViewValuation'
        WHEN 'valuation.updated' THEN 'canViewValuation'
        WHEN 'capital_change.created' THEN 'canViewCapTable'
        WHEN 'capital_change.updated' THEN 'canViewCapTable'
        WHEN 'document.uploaded' THEN 'canViewDocuments'
        WHEN 'document.moved' THEN 'canViewDocuments'
        WHEN 'document.deleted' THEN 'canViewDocuments'
        WHEN 'folder.created' THEN 'canViewDocuments'
        WHEN 'billing.shareholder_count_changed' THEN 'canEditOrganizationBilling'
        WHEN 'billing.member_count_changed' THEN 'canEditOrganizationBilling'
        ELSE 'canEditOrganization' END
      END`);
    const uuid = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
    const object = `metadata -> 'data' -> 'object'`;
    await queryRunner.query(`
      UPDATE activity_action SET audience_member_ids = ARRAY[(${object} ->> 'id')::uuid]
      WHERE event_id IS NOT NULL AND type LIKE 'member.%' AND ${object} ->> 'id' ~ ${uuid}`);
    await queryRunner.query(`
      UPDATE activity_action SET audience_member_ids = ARRAY[(${object} ->> 'member')::uuid]
      WHERE event_id IS NOT NULL
        AND (type IN ('shareholding.created', 'shareholding.updated', 'shareholding.voided')
             OR type LIKE 'holding.%')
        AND ${object} ->> 'member' ~ ${uuid}`);
    await queryRunner.query(`
      UPDATE activity_action a SET audience_member_ids = ARRAY[h.member_id]
      FROM holding h
      WHERE a.event_id IS NOT NULL AND a.type LIKE 'option.%'
        AND a.${object} ->> 'option' ~ ${uuid}
        AND h.id = (a.${object} ->> 'option')::uuid`);
    await queryRunner.query(
      `ALTER TABLE "activity_action" ALTER COLUMN "audience_permission" SET NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_action" DROP COLUMN "audience_member_ids"`);
    await queryRunner.query(`ALTER TABLE "activity_action" DROP COLUMN "audience_permission"`);
    await queryRunner.query(`ALTER TABLE "outbox_event" DROP COLUMN "subject_member_ids"`);
  }
}
