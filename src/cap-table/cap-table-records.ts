import { Injectable, OnModuleInit } from '@nestjs/common';
import { RecordResolvers } from '../common';
import { ownedSql } from '../database';
import { memberUserSql, userMembersSql } from '../organizations';
import { GRANT_TYPES } from './ledger/incentive-types';

/**
 * SQL: whether the user holds the holding, or a holding of the plan, through a current member
 * record (for other modules' record resolvers: a grant agreement or a plan's document is each
 * grantee's). The arguments are expressions of the embedding query; `plan` may be null.
 */
export const holdsIncentiveSql = (user: string, holding: string, plan: string) =>
  ownedSql(
    'cap-table',
    `EXISTS (
       SELECT 1 FROM holding h WHERE h.member_id IN ${userMembersSql(user)}
         AND (h.id = ${holding} OR (${plan} IS NOT NULL AND h.plan_id = ${plan})))`,
  );

/**
 * Teaches the permission guard where the cap table's records belong. A shareholding's owner (for
 * `canViewHolding` and the other "self" permissions) is the user of its holder; so is a
 * holding's (option grants, warrants, notes, SAFEs) and an exercise request's.
 */
@Injectable()
export class CapTableRecords implements OnModuleInit {
  constructor(private readonly resolvers: RecordResolvers) {}

  onModuleInit() {
    // The access query (organizations') embeds these: marked as this module's SQL.
    const register = (kind: string, sql: string) =>
      this.resolvers.register(kind, ownedSql('cap-table', sql));
    register(
      'security',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM security WHERE id = {id} AND deleted_at IS NULL',
    );
    register(
      'legend',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM legend WHERE id = {id} AND deleted_at IS NULL',
    );
    register(
      'shareholding',
      `SELECT h.organization_id, ${memberUserSql('h.member_id')} AS owner_user_id
       FROM shareholding h WHERE h.id = {id}`,
    );
    register(
      'capitalChange',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM capital_change WHERE id = {id}',
    );
    register(
      'valuation',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM valuation WHERE id = {id}',
    );
    register(
      'plan',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM stock_plan WHERE id = {id} AND deleted_at IS NULL',
    );
    register(
      'pool',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM stock_plan_pool WHERE id = {id} AND deleted_at IS NULL',
    );
    register(
      'vestingSchedule',
      'SELECT organization_id, NULL::uuid AS owner_user_id FROM vesting_schedule WHERE id = {id} AND deleted_at IS NULL',
    );
    // A holding's owner (canViewHolding, canViewOption ...) is the user of its holder.
    register(
      'holding',
      `SELECT h.organization_id, ${memberUserSql('h.member_id')} AS owner_user_id
       FROM holding h WHERE h.id = {id}`,
    );
    register(
      'option',
      `SELECT h.organization_id, ${memberUserSql('h.member_id')} AS owner_user_id
       FROM holding h WHERE h.id = {id} AND h.type IN (${GRANT_TYPES.map((t) => `'${t}'`).join(', ')})`,
    );
    register(
      'exerciseRequest',
      `SELECT r.organization_id, ${memberUserSql('h.member_id')} AS owner_user_id
       FROM exercise_request r JOIN holding h ON h.id = r.holding_id WHERE r.id = {id}`,
    );
  }
}
