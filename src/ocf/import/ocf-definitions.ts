import Decimal from 'decimal.js';
import { maxLength } from 'class-validator';
import { toDecimal, toDecimalString, totalPeriodsProblem } from '../../../libs/cap-math';
import {
  MAX_LEGEND_NAME_LENGTH,
  MAX_LEGEND_TEXT_LENGTH,
  type SecurityRecord,
} from '../../cap-table';
import { amount, arr, canonical, obj, str, type Located } from '../../../libs/ocf';
import { ISSUANCES, KEPT } from './ocf-kept-fields';
import { MapperBase } from './ocf-mapper-base';
import { scheduleShape } from './ocf-vesting';

/** The objects of a package that are not transactions, as ledger definitions. */
export abstract class DefinitionsMapper extends MapperBase {
  protected index() {
    const seen = new Set<string>();
    for (const l of this.pkg.transactions) {
      if (!this.unique(seen, l)) continue;
      this.txById.set(this.ocfId(l), l);
      const o = l.object;
      const type = String(o.object_type);
      const security = str(o.security_id);
      if (ISSUANCES.has(type) && security) {
        if (this.issuedBy.has(security)) {
          this.problem(l, 'security_id', `the security ${security} is issued twice`);
        } else this.issuedBy.set(security, l);
      }
      for (const r of arr(o.resulting_security_ids)) if (typeof r === 'string') this.results.add(r);
      const balance = str(o.balance_security_id);
      if (balance) this.results.add(balance);
      if (type === 'TX_VESTING_START' && security && !this.vestingStarts.has(security)) {
        this.vestingStarts.set(security, l);
      }
    }
  }

  protected stakeholders() {
    const seen = new Set<string>();
    for (const l of this.pkg.stakeholders) {
      if (!this.unique(seen, l)) continue;
      const o = l.object;
      const name = str(obj(o.name)?.legal_name)?.trim() ?? '';
      if (!name) this.problem(l, 'name/legal_name', 'a stakeholder needs a name');
      const contact = obj(o.contact_info) ?? obj(o.primary_contact);
      const emails = arr(contact?.emails)
        .map((e) => str(obj(e)?.email_address)?.trim().toLowerCase())
        .filter((e): e is string => !!e);
      const email = emails[0] ?? null;
      this.unkept(l, [...KEPT.STAKEHOLDER, 'primary_contact']);
      if (emails.length > 1 || arr(contact?.phone_numbers).length) {
        this.warn(
          l,
          o.contact_info ? 'contact_info' : 'primary_contact',
          'only the first e-mail address is kept',
        );
      }
      if (o.primary_contact && !o.contact_info) {
        this.warn(l, 'primary_contact', "the primary contact's e-mail address is the member's");
      }
      if (str(o.stakeholder_type) === 'INSTITUTION') {
        this.warn(l, 'stakeholder_type', 'members are not typed: INSTITUTION is not kept');
      }
      const existing = email ? this.options.membersByEmail.get(email) : undefined;
      // Stakeholders sharing an address are one new member (as the CSV import does).
      const sibling = email ? [...this.members.values()].find((m) => m.email === email) : undefined;
      if (sibling && !existing) {
        this.warn(
          l,
          'contact_info',
          `the stakeholder ${sibling.ocfId} has the same e-mail address: one member`,
        );
      }
      this.members.set(this.ocfId(l), {
        ocfId: this.ocfId(l),
        memberId: existing ?? sibling?.memberId ?? this.newId(),
        name: name.slice(0, 200),
        email,
        existing: !!existing,
      });
      this.counts.stakeholders++;
      if (existing) this.counts.membersMatched++;
      else if (!sibling) this.counts.membersCreated++;
    }
  }

  protected stockClasses() {
    const seen = new Set<string>();
    const prefixes = new Set<string>();
    for (const l of this.pkg.stockClasses) {
      if (!this.unique(seen, l)) continue;
      const o = l.object;
      this.unkept(l);
      const authorized = str(o.initial_shares_authorized)!;
      if (!/^[+-]?\d/.test(authorized)) {
        this.problem(
          l,
          'initial_shares_authorized',
          `${authorized}: a class needs a number of authorized shares`,
        );
        continue;
      }
      let prefix = (str(o.default_id_prefix) ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 20);
      if (!prefix) prefix = 'S';
      const wanted = prefix;
      for (let n = 2; prefixes.has(prefix); n++) prefix = `${wanted.slice(0, 17)}-${n}`;
      prefixes.add(prefix);
      if (prefix !== o.default_id_prefix) {
        this.warn(l, 'default_id_prefix', `the certificate prefix is ${prefix}`);
      }
      // As the API's class DTO: the column is an integer.
      const seniority = Number(str(o.seniority) ?? '1');
      const seniorityOk = Number.isInteger(seniority) && seniority >= 0 && seniority <= 1000;
      if (!seniorityOk) this.problem(l, 'seniority', 'must be a whole number from 0 to 1000');
      const { ratio, convertsTo } = this.conversionRatio(l, arr(o.conversion_rights));
      const id = this.newId();
      this.classes.set(this.ocfId(l), id);
      const record: SecurityRecord = {
        id,
        name: String(o.name).slice(0, 200),
        classType: o.class_type === 'PREFERRED' ? 'preferred' : 'common',
        idPrefix: prefix,
        authorizedShares: canonical(authorized),
        parValue: amount(o.par_value),
        originalIssuePrice: amount(o.price_per_share),
        currency:
          this.note<string>(o, 'currency') ??
          str(obj(o.price_per_share)?.currency) ??
          str(obj(o.par_value)?.currency) ??
          this.options.currency,
        seniority: seniorityOk ? seniority : 1,
        liquidationPreferenceMultiple: o.liquidation_preference_multiple
          ? canonical(String(o.liquidation_preference_multiple))
          : null,
        participating:
          this.note<boolean>(o, 'participating') ??
          (o.class_type === 'PREFERRED' && o.participation_cap_multiple !== undefined),
        participationCapMultiple: o.participation_cap_multiple
          ? canonical(String(o.participation_cap_multiple))
          : null,
        conversionRatio: canonical(String(this.note(o, 'conversionRatio') ?? ratio)),
        votesPerShare: canonical(str(o.votes_per_share) ?? '1'),
        boardApprovalDate: str(o.board_approval_date) ?? null,
      };
      if (convertsTo) this.pendingConversions.push({ l, convertsTo });
      if (this.note(o, 'deleted') === true)
        this.deletions.push({ l, type: 'STOCK_CLASS_DELETED', id });
      this.counts.stockClasses++;
      this.record(l, {
        type: 'STOCK_CLASS_CREATED',
        effectiveDate: record.boardApprovalDate ?? this.asOf,
        payload: { security: record },
      });
    }
    for (const { l, convertsTo } of this.pendingConversions) {
      if (!this.classes.has(convertsTo)) {
        this.problem(
          l,
          'conversion_rights',
          `converts to the stock class ${convertsTo}, which is not in the package`,
        );
      }
    }
  }

  /** A ratio conversion right (numerator / denominator) as the class's conversion ratio; others are warned about. */
  protected conversionRatio(l: Located, rights: unknown[]): { ratio: string; convertsTo?: string } {
    let ratio = '1';
    let convertsTo: string | undefined;
    rights.forEach((r, i) => {
      const mechanism = obj(obj(r)?.conversion_mechanism);
      const pair = obj(mechanism?.ratio);
      if (i === 0 && mechanism?.type === 'RATIO_CONVERSION' && pair) {
        ratio = toDecimalString(
          toDecimal(String(pair.numerator)).div(toDecimal(String(pair.denominator))),
        );
        convertsTo = str(obj(r)?.converts_to_stock_class_id);
        const price = amount(mechanism.conversion_price);
        const samePrice =
          price === null || price === amount(obj(rights[0] && l.object)?.price_per_share);
        if (!samePrice || (mechanism.rounding_type && mechanism.rounding_type !== 'NORMAL')) {
          this.warn(l, `conversion_rights/${i}/conversion_mechanism`, 'only the ratio is kept');
        }
      } else {
        this.warn(
          l,
          `conversion_rights/${i}`,
          'this conversion right has no counterpart: not imported',
        );
      }
    });
    return { ratio, convertsTo };
  }

  protected stockLegends() {
    const seen = new Set<string>();
    for (const l of this.pkg.legends) {
      if (!this.unique(seen, l)) continue;
      this.unkept(l);
      const text = String(l.object.text);
      // The API's bound on a legend; its certificate and every legend list render all of it.
      if (!maxLength(text, MAX_LEGEND_TEXT_LENGTH)) {
        this.problem(
          l,
          'text',
          `the legend text has ${text.length} characters, more than ${MAX_LEGEND_TEXT_LENGTH}`,
        );
      }
      const id = this.newId();
      this.legends.set(this.ocfId(l), id);
      if (this.note(l.object, 'deleted') === true) {
        this.deletions.push({ l, type: 'STOCK_LEGEND_TEMPLATE_DELETED', id });
      }
      this.counts.stockLegendTemplates++;
      this.record(l, {
        type: 'STOCK_LEGEND_TEMPLATE_CREATED',
        effectiveDate: this.asOf,
        payload: {
          legend: {
            id,
            name: String(l.object.name).slice(0, MAX_LEGEND_NAME_LENGTH),
            text,
            isDefault: this.note(l.object, 'isDefault') === true,
          },
        },
      });
    }
  }

  protected vestingTerms() {
    const seen = new Set<string>();
    for (const l of this.pkg.vestingTerms) {
      if (!this.unique(seen, l)) continue;
      const o = l.object;
      const exact = this.note<Record<string, unknown>>(o, 'schedule');
      // The export describes its schedule in words: the schedule note says it all.
      if (exact) this.keep(o, 'description');
      this.unkept(l);
      const shape = exact
        ? {
            totalPeriods: Number(exact.totalPeriods),
            periodLength: Number(exact.periodLength),
            periodType: exact.periodType as 'days' | 'months',
            cliffPeriods: Number(exact.cliffPeriods),
            vestingDayOfMonth: (exact.vestingDayOfMonth as string | null) ?? null,
          }
        : scheduleShape(o);
      const tooLong = typeof shape === 'string' ? null : totalPeriodsProblem(shape);
      if (tooLong) {
        // The API's bound: every read of a grant or projection of the schedule lists its periods.
        this.problem(l, 'vesting_conditions', tooLong);
      }
      if (typeof shape === 'string') {
        this.warn(
          l,
          'vesting_conditions',
          `${shape}: not imported; grants on these terms are imported without a schedule`,
        );
        this.schedules.set(this.ocfId(l), null);
        continue;
      }
      const id = this.newId();
      const previous = this.note<string>(o, 'previousVersionId');
      const planRef = this.note<string>(o, 'planId');
      this.schedules.set(this.ocfId(l), id);
      this.notes(o, 'supersededById');
      if (this.note(o, 'deleted') === true) {
        this.deletions.push({ l, type: 'VESTING_TERMS_DELETED', id });
      }
      this.counts.vestingTerms++;
      this.record(l, {
        type: 'VESTING_TERMS_CREATED',
        effectiveDate: this.asOf,
        payload: {
          vestingSchedule: {
            id,
            name: String(o.name).slice(0, 200),
            planId: (planRef && this.plans.get(planRef)?.planId) || null,
            version: Number(this.note(o, 'version') ?? 1),
            previousVersionId: (previous && this.schedules.get(previous)) || null,
            ...shape,
            allocationType: o.allocation_type as never,
            acceleration:
              (this.note(o, 'acceleration') as { trigger: 'single' | 'double'; percent: string }) ??
              null,
          },
        },
      });
    }
  }

  protected stockPlans() {
    const seen = new Set<string>();
    for (const l of this.pkg.plans) {
      if (!this.unique(seen, l)) continue;
      const o = l.object;
      this.unkept(l);
      const classIds = arr(o.stock_class_ids).filter((c): c is string => typeof c === 'string');
      const securityId = classIds.length ? this.classes.get(classIds[0]) : undefined;
      if (!securityId) {
        this.problem(
          l,
          'stock_class_ids',
          classIds.length
            ? `the stock class ${classIds[0]} is not in the package`
            : 'a plan needs the stock class its grants exercise into',
        );
        continue;
      }
      if (classIds.length > 1) {
        this.warn(l, 'stock_class_ids', 'a plan has one class: only the first is kept');
      }
      const behavior = str(o.default_cancellation_behavior) ?? 'RETURN_TO_POOL';
      if (behavior !== 'RETURN_TO_POOL' && behavior !== 'RETIRE') {
        this.warn(
          l,
          'default_cancellation_behavior',
          `${behavior} has no counterpart: cancelled grants return to the pool`,
        );
      }
      const planId = this.newId();
      const noted = this.notes<{
        id: string;
        name: string;
        sharesReserved: string;
        deleted?: boolean;
      }>(o, 'pool');
      const pools = noted.length
        ? noted.map((x) => ({
            id: this.newId(),
            ocfId: String(x.id),
            name: String(x.name).slice(0, 200),
            target: canonical(String(x.sharesReserved)),
            deleted: x.deleted === true,
          }))
        : null;
      for (const x of pools ?? []) this.pools.set(x.ocfId, x.id);
      const poolId = pools ? pools[0].id : this.newId();
      this.plans.set(this.ocfId(l), { planId, poolId, behavior, pools });
      if (this.note(o, 'deleted') === true)
        this.deletions.push({ l, type: 'STOCK_PLAN_DELETED', id: planId });
      const reserved = canonical(String(o.initial_shares_reserved));
      const name = String(o.plan_name).slice(0, 200);
      const date = str(o.board_approval_date) ?? this.asOf;
      this.counts.stockPlans++;
      this.record(l, {
        type: 'STOCK_PLAN_CREATED',
        effectiveDate: date,
        payload: {
          plan: {
            id: planId,
            name,
            securityId,
            sharesReserved: reserved,
            boardApprovalDate: str(o.board_approval_date) ?? null,
            stockholderApprovalDate: str(o.stockholder_approval_date) ?? null,
            defaultCancellationBehavior: behavior === 'RETIRE' ? 'retire' : 'return_to_pool',
          },
        },
      });
      if (pools) {
        // The export's pools, as large as the plan's first reservation allows (see fitPools).
        let free = toDecimal(reserved);
        for (const x of pools) {
          const size = Decimal.min(free, toDecimal(x.target));
          free = free.minus(size);
          this.record(l, {
            type: 'STOCK_PLAN_POOL_CREATED',
            effectiveDate: date,
            payload: {
              pool: { id: x.id, planId, name: x.name, sharesReserved: toDecimalString(size) },
            },
          });
        }
        continue;
      }
      // OCF plans have no pools: one pool holds the whole reservation.
      this.record(l, {
        type: 'STOCK_PLAN_POOL_CREATED',
        effectiveDate: date,
        payload: { pool: { id: poolId, planId, name, sharesReserved: reserved } },
      });
    }
  }

  protected valuations() {
    // Valuations OCF has no object for (not a 409A of one class), kept in the manifest's comments.
    for (const v of this.notes<Record<string, string | null>>(this.pkg.manifest, 'valuation')) {
      const securityId = v.securityId ? this.classes.get(v.securityId) : null;
      this.counts.valuations++;
      this.record(null, {
        type: 'VALUATION_RECORDED',
        effectiveDate: String(v.effectiveDate),
        payload: {
          valuation: {
            id: this.newId(),
            type: String(v.type),
            pricePerShare: canonical(String(v.pricePerShare)),
            securityId: securityId ?? null,
            effectiveDate: String(v.effectiveDate),
            provider: v.provider ?? null,
            reportFileId: null,
          },
        },
      });
    }
    const seen = new Set<string>();
    for (const l of this.pkg.valuations) {
      if (!this.unique(seen, l)) continue;
      const o = l.object;
      this.unkept(l);
      const classId = str(o.stock_class_id);
      const securityId = classId ? this.classes.get(classId) : undefined;
      if (classId && !securityId) {
        this.problem(l, 'stock_class_id', `the stock class ${classId} is not in the package`);
        continue;
      }
      this.counts.valuations++;
      this.record(l, {
        type: 'VALUATION_RECORDED',
        effectiveDate: String(o.effective_date),
        payload: {
          valuation: {
            id: this.newId(),
            type: String(o.valuation_type),
            pricePerShare: amount(o.price_per_share)!,
            securityId: securityId ?? null,
            effectiveDate: String(o.effective_date),
            provider: str(o.provider) ?? null,
            reportFileId: null,
          },
        },
      });
    }
  }
}
