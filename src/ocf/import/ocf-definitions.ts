import Decimal from 'decimal.js';
import { maxLength } from 'class-validator';
import { toDecimal, toDecimalString, totalPeriodsProblem } from '../../../libs/cap-math';
import {
  MAX_LEGEND_NAME_LENGTH,
  MAX_LEGEND_TEXT_LENGTH,
  type SecurityRecord,
} from '../../cap-table';
import { amount, arr, canonical, obj, str, type Located } from '../../../libs/ocf';
import type { ImportBook, MappingOptions } from './ocf-import-book';
import { KEPT } from './ocf-kept-fields';
import type { OcfPackage } from './ocf-package';
import { scheduleShape } from './ocf-vesting';

/** The objects of a package that are not transactions, as ledger definitions. */
export class DefinitionsMapping {
  constructor(
    private readonly book: ImportBook,
    private readonly pkg: OcfPackage,
    private readonly options: MappingOptions,
  ) {}

  stakeholders() {
    const seen = new Set<string>();
    for (const l of this.pkg.stakeholders) {
      if (!this.book.unique(seen, l)) continue;
      const o = l.object;
      const name = str(obj(o.name)?.legal_name)?.trim() ?? '';
      if (!name) this.book.problem(l, 'name/legal_name', 'a stakeholder needs a name');
      const contact = obj(o.contact_info) ?? obj(o.primary_contact);
      const emails = arr(contact?.emails)
        .map((e) => str(obj(e)?.email_address)?.trim().toLowerCase())
        .filter((e): e is string => !!e);
      const email = emails[0] ?? null;
      this.book.unkept(l, [...KEPT.STAKEHOLDER, 'primary_contact']);
      if (emails.length > 1 || arr(contact?.phone_numbers).length) {
        this.book.warn(
          l,
          o.contact_info ? 'contact_info' : 'primary_contact',
          'only the first e-mail address is kept',
        );
      }
      if (o.primary_contact && !o.contact_info) {
        this.book.warn(
          l,
          'primary_contact',
          "the primary contact's e-mail address is the member's",
        );
      }
      if (str(o.stakeholder_type) === 'INSTITUTION') {
        this.book.warn(l, 'stakeholder_type', 'members are not typed: INSTITUTION is not kept');
      }
      const existing = email ? this.options.membersByEmail.get(email) : undefined;
      // Stakeholders sharing an address are one new member (as the CSV import does).
      const sibling = email
        ? [...this.book.members.values()].find((m) => m.email === email)
        : undefined;
      if (sibling && !existing) {
        this.book.warn(
          l,
          'contact_info',
          `the stakeholder ${sibling.ocfId} has the same e-mail address: one member`,
        );
      }
      this.book.members.set(this.book.ocfId(l), {
        ocfId: this.book.ocfId(l),
        memberId: existing ?? sibling?.memberId ?? this.book.newId(),
        name: name.slice(0, 200),
        email,
        existing: !!existing,
      });
      this.book.counts.stakeholders++;
      if (existing) this.book.counts.membersMatched++;
      else if (!sibling) this.book.counts.membersCreated++;
    }
  }

  stockClasses() {
    const seen = new Set<string>();
    const pendingConversions: { l: Located; convertsTo: string }[] = [];
    const prefixes = new Set<string>();
    for (const l of this.pkg.stockClasses) {
      if (!this.book.unique(seen, l)) continue;
      const o = l.object;
      this.book.unkept(l);
      const authorized = str(o.initial_shares_authorized)!;
      if (!/^[+-]?\d/.test(authorized)) {
        this.book.problem(
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
        this.book.warn(l, 'default_id_prefix', `the certificate prefix is ${prefix}`);
      }
      // As the API's class DTO: the column is an integer.
      const seniority = Number(str(o.seniority) ?? '1');
      const seniorityOk = Number.isInteger(seniority) && seniority >= 0 && seniority <= 1000;
      if (!seniorityOk) this.book.problem(l, 'seniority', 'must be a whole number from 0 to 1000');
      const { ratio, convertsTo } = this.conversionRatio(l, arr(o.conversion_rights));
      const id = this.book.newId();
      this.book.classes.set(this.book.ocfId(l), id);
      const record: SecurityRecord = {
        id,
        name: String(o.name).slice(0, 200),
        classType: o.class_type === 'PREFERRED' ? 'preferred' : 'common',
        idPrefix: prefix,
        authorizedShares: canonical(authorized),
        parValue: amount(o.par_value),
        originalIssuePrice: amount(o.price_per_share),
        currency:
          this.book.note<string>(o, 'currency') ??
          str(obj(o.price_per_share)?.currency) ??
          str(obj(o.par_value)?.currency) ??
          this.options.currency,
        seniority: seniorityOk ? seniority : 1,
        liquidationPreferenceMultiple: o.liquidation_preference_multiple
          ? canonical(String(o.liquidation_preference_multiple))
          : null,
        participating:
          this.book.note<boolean>(o, 'participating') ??
          (o.class_type === 'PREFERRED' && o.participation_cap_multiple !== undefined),
        participationCapMultiple: o.participation_cap_multiple
          ? canonical(String(o.participation_cap_multiple))
          : null,
        conversionRatio: canonical(String(this.book.note(o, 'conversionRatio') ?? ratio)),
        votesPerShare: canonical(str(o.votes_per_share) ?? '1'),
        boardApprovalDate: str(o.board_approval_date) ?? null,
      };
      if (convertsTo) pendingConversions.push({ l, convertsTo });
      if (this.book.note(o, 'deleted') === true)
        this.book.deletions.push({ l, type: 'STOCK_CLASS_DELETED', id });
      this.book.counts.stockClasses++;
      this.book.record(l, {
        type: 'STOCK_CLASS_CREATED',
        effectiveDate: record.boardApprovalDate ?? this.book.asOf,
        payload: { security: record },
      });
    }
    for (const { l, convertsTo } of pendingConversions) {
      if (!this.book.classes.has(convertsTo)) {
        this.book.problem(
          l,
          'conversion_rights',
          `converts to the stock class ${convertsTo}, which is not in the package`,
        );
      }
    }
  }

  /** A ratio conversion right (numerator / denominator) as the class's conversion ratio; others are warned about. */
  private conversionRatio(l: Located, rights: unknown[]): { ratio: string; convertsTo?: string } {
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
          this.book.warn(
            l,
            `conversion_rights/${i}/conversion_mechanism`,
            'only the ratio is kept',
          );
        }
      } else {
        this.book.warn(
          l,
          `conversion_rights/${i}`,
          'this conversion right has no counterpart: not imported',
        );
      }
    });
    return { ratio, convertsTo };
  }

  stockLegends() {
    const seen = new Set<string>();
    for (const l of this.pkg.legends) {
      if (!this.book.unique(seen, l)) continue;
      this.book.unkept(l);
      const text = String(l.object.text);
      // The API's bound on a legend; its certificate and every legend list render all of it.
      if (!maxLength(text, MAX_LEGEND_TEXT_LENGTH)) {
        this.book.problem(
          l,
          'text',
          `the legend text has ${text.length} characters, more than ${MAX_LEGEND_TEXT_LENGTH}`,
        );
      }
      const id = this.book.newId();
      this.book.legends.set(this.book.ocfId(l), id);
      if (this.book.note(l.object, 'deleted') === true) {
        this.book.deletions.push({ l, type: 'STOCK_LEGEND_TEMPLATE_DELETED', id });
      }
      this.book.counts.stockLegendTemplates++;
      this.book.record(l, {
        type: 'STOCK_LEGEND_TEMPLATE_CREATED',
        effectiveDate: this.book.asOf,
        payload: {
          legend: {
            id,
            name: String(l.object.name).slice(0, MAX_LEGEND_NAME_LENGTH),
            text,
            isDefault: this.book.note(l.object, 'isDefault') === true,
          },
        },
      });
    }
  }

  vestingTerms() {
    const seen = new Set<string>();
    for (const l of this.pkg.vestingTerms) {
      if (!this.book.unique(seen, l)) continue;
      const o = l.object;
      const exact = this.book.note<Record<string, unknown>>(o, 'schedule');
      // The export describes its schedule in words: the schedule note says it all.
      if (exact) this.book.keep(o, 'description');
      this.book.unkept(l);
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
        this.book.problem(l, 'vesting_conditions', tooLong);
      }
      if (typeof shape === 'string') {
        this.book.warn(
          l,
          'vesting_conditions',
          `${shape}: not imported; grants on these terms are imported without a schedule`,
        );
        this.book.schedules.set(this.book.ocfId(l), null);
        continue;
      }
      const id = this.book.newId();
      const previous = this.book.note<string>(o, 'previousVersionId');
      const planRef = this.book.note<string>(o, 'planId');
      this.book.schedules.set(this.book.ocfId(l), id);
      this.book.notes(o, 'supersededById');
      if (this.book.note(o, 'deleted') === true) {
        this.book.deletions.push({ l, type: 'VESTING_TERMS_DELETED', id });
      }
      this.book.counts.vestingTerms++;
      this.book.record(l, {
        type: 'VESTING_TERMS_CREATED',
        effectiveDate: this.book.asOf,
        payload: {
          vestingSchedule: {
            id,
            name: String(o.name).slice(0, 200),
            planId: (planRef && this.book.plans.get(planRef)?.planId) || null,
            version: Number(this.book.note(o, 'version') ?? 1),
            previousVersionId: (previous && this.book.schedules.get(previous)) || null,
            ...shape,
            allocationType: o.allocation_type as never,
            acceleration:
              (this.book.note(o, 'acceleration') as {
                trigger: 'single' | 'double';
                percent: string;
              }) ?? null,
          },
        },
      });
    }
  }

  stockPlans() {
    const seen = new Set<string>();
    for (const l of this.pkg.plans) {
      if (!this.book.unique(seen, l)) continue;
      const o = l.object;
      this.book.unkept(l);
      const classIds = arr(o.stock_class_ids).filter((c): c is string => typeof c === 'string');
      const securityId = classIds.length ? this.book.classes.get(classIds[0]) : undefined;
      if (!securityId) {
        this.book.problem(
          l,
          'stock_class_ids',
          classIds.length
            ? `the stock class ${classIds[0]} is not in the package`
            : 'a plan needs the stock class its grants exercise into',
        );
        continue;
      }
      if (classIds.length > 1) {
        this.book.warn(l, 'stock_class_ids', 'a plan has one class: only the first is kept');
      }
      const behavior = str(o.default_cancellation_behavior) ?? 'RETURN_TO_POOL';
      if (behavior !== 'RETURN_TO_POOL' && behavior !== 'RETIRE') {
        this.book.warn(
          l,
          'default_cancellation_behavior',
          `${behavior} has no counterpart: cancelled grants return to the pool`,
        );
      }
      const planId = this.book.newId();
      const noted = this.book.notes<{
        id: string;
        name: string;
        sharesReserved: string;
        deleted?: boolean;
      }>(o, 'pool');
      const pools = noted.length
        ? noted.map((x) => ({
            id: this.book.newId(),
            ocfId: String(x.id),
            name: String(x.name).slice(0, 200),
            target: canonical(String(x.sharesReserved)),
            deleted: x.deleted === true,
          }))
        : null;
      for (const x of pools ?? []) this.book.pools.set(x.ocfId, x.id);
      const poolId = pools ? pools[0].id : this.book.newId();
      this.book.plans.set(this.book.ocfId(l), { planId, poolId, behavior, pools });
      if (this.book.note(o, 'deleted') === true)
        this.book.deletions.push({ l, type: 'STOCK_PLAN_DELETED', id: planId });
      const reserved = canonical(String(o.initial_shares_reserved));
      const name = String(o.plan_name).slice(0, 200);
      const date = str(o.board_approval_date) ?? this.book.asOf;
      this.book.counts.stockPlans++;
      this.book.record(l, {
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
          this.book.record(l, {
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
      this.book.record(l, {
        type: 'STOCK_PLAN_POOL_CREATED',
        effectiveDate: date,
        payload: { pool: { id: poolId, planId, name, sharesReserved: reserved } },
      });
    }
  }

  valuations() {
    // Valuations OCF has no object for (not a 409A of one class), kept in the manifest's comments.
    for (const v of this.book.notes<Record<string, string | null>>(
      this.pkg.manifest,
      'valuation',
    )) {
      const securityId = v.securityId ? this.book.classes.get(v.securityId) : null;
      this.book.counts.valuations++;
      this.book.record(null, {
        type: 'VALUATION_RECORDED',
        effectiveDate: String(v.effectiveDate),
        payload: {
          valuation: {
            id: this.book.newId(),
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
      if (!this.book.unique(seen, l)) continue;
      const o = l.object;
      this.book.unkept(l);
      const classId = str(o.stock_class_id);
      const securityId = classId ? this.book.classes.get(classId) : undefined;
      if (classId && !securityId) {
        this.book.problem(l, 'stock_class_id', `the stock class ${classId} is not in the package`);
        continue;
      }
      this.book.counts.valuations++;
      this.book.record(l, {
        type: 'VALUATION_RECORDED',
        effectiveDate: String(o.effective_date),
        payload: {
          valuation: {
            id: this.book.newId(),
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
