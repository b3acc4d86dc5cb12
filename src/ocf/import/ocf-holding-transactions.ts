import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import type { HoldingRecord, HoldingTerms, HoldingType } from '../../cap-table';
import { amount, arr, canonical, obj, percent, str, type Located } from '../../../libs/ocf';
import { COMPENSATION } from './ocf-kept-fields';
import type { Done } from './ocf-mapper-base';
import { StockTransactions } from './ocf-stock-transactions';

/** The transactions of grants, warrants and convertibles. */
export abstract class HoldingTransactions extends StockTransactions {
  protected windows(l: Located): HoldingTerms['terminationExerciseWindows'] {
    return arr(l.object.termination_exercise_windows).map((w) => {
      const x = obj(w)!;
      return {
        reason: String(x.reason),
        period: Number(x.period),
        periodType: String(x.period_type).toLowerCase() as never,
      };
    });
  }

  protected vestingStartOf(security: string): string | null {
    const start = this.vestingStarts.get(security);
    return start ? String(start.object.date) : null;
  }

  protected addHolding(
    l: Located,
    type: 'TX_EQUITY_COMPENSATION_ISSUANCE' | 'TX_WARRANT_ISSUANCE' | 'TX_CONVERTIBLE_ISSUANCE',
    holding: HoldingRecord,
  ): boolean {
    const ok = this.record(l, {
      type,
      effectiveDate: String(l.object.date),
      payload: { holding },
    });
    if (ok) this.issued(l, String(l.object.security_id), { kind: 'holding', id: holding.id });
    return ok;
  }

  protected grant(l: Located): Done {
    const o = l.object;
    const planRef = str(o.stock_plan_id);
    if (!planRef) {
      this.warn(l, 'stock_plan_id', 'equity compensation outside a stock plan has no counterpart');
      return 'unsupported';
    }
    const plan = this.plans.get(planRef)!;
    const quantity = this.quantity(l, 'quantity', o.quantity);
    if (!quantity) return false;
    const type =
      (this.note<HoldingType>(o, 'holdingType') as HoldingType | undefined) ??
      COMPENSATION[String(o.compensation_type)];
    const notedPool = this.note<string>(o, 'poolId');
    const planClass = this.state.plans.get(plan.planId)!.securityId;
    if (!o.stock_class_id || this.classes.get(String(o.stock_class_id)) === planClass) {
      this.keep(o, 'stock_class_id');
    }
    const grantType = { OPTION_ISO: 'ISO', OPTION_NSO: 'NSO' }[String(o.compensation_type)];
    if (o.option_grant_type === grantType) this.keep(o, 'option_grant_type');
    if (o.compensation_type === 'CSAR' || o.compensation_type === 'SSAR') {
      this.warn(l, 'compensation_type', `${String(o.compensation_type)} is recorded as a SAR`);
    }
    const termsRef = str(o.vesting_terms_id);
    const scheduleId = termsRef ? (this.schedules.get(termsRef) ?? null) : null;
    if (termsRef && !scheduleId) {
      this.warn(
        l,
        'vesting_terms_id',
        `the vesting terms ${termsRef} were not imported: the grant has no schedule`,
      );
    }
    const security = String(o.security_id);
    const grantDate = String(o.date);
    return this.addHolding(l, 'TX_EQUITY_COMPENSATION_ISSUANCE', {
      id: this.newId(),
      memberId: this.members.get(String(o.stakeholder_id))!.memberId,
      type,
      planId: plan.planId,
      poolId: (notedPool && this.pools.get(notedPool)) || plan.poolId,
      securityId: this.state.plans.get(plan.planId)!.securityId,
      vestingScheduleId: scheduleId,
      terms: {
        quantity,
        exercisePrice: amount(o.exercise_price),
        grantDate,
        expirationDate: str(o.expiration_date) ?? null,
        vestingStartDate:
          this.note<string>(o, 'vestingStartDate') ?? this.vestingStartOf(security) ?? grantDate,
        earlyExercisable: o.early_exercisable === true,
        terminationExerciseWindows: this.windows(l),
      },
    });
  }

  protected warrant(l: Located): boolean {
    const o = l.object;
    const quantity = this.quantity(l, 'quantity', o.quantity);
    if (!quantity) {
      if (o.quantity === undefined) this.problem(l, 'quantity', 'a warrant needs a quantity');
      return false;
    }
    const classRef = arr(o.exercise_triggers)
      .map((t) => str(obj(obj(t)?.conversion_right)?.converts_to_stock_class_id))
      .find((c) => c !== undefined);
    const securityId = classRef ? this.classes.get(classRef) : undefined;
    if (!securityId) {
      this.problem(
        l,
        'exercise_triggers',
        classRef
          ? `the stock class ${classRef} is not in the package`
          : 'a warrant needs the stock class it is exercised into',
      );
      return false;
    }
    this.warn(
      l,
      'exercise_triggers',
      'exercise triggers are not kept: only the class they convert to',
    );
    this.notes(o, 'holdingType');
    if (o.quantity_source === 'INSTRUMENT_FIXED') this.keep(o, 'quantity_source');
    // The export writes a purchase price of 0 for what it does not record (and says so).
    if (this.note(o, 'purchasePrice') !== undefined && Number(amount(o.purchase_price)) === 0) {
      this.keep(o, 'purchase_price');
    }
    return this.addHolding(l, 'TX_WARRANT_ISSUANCE', {
      id: this.newId(),
      memberId: this.members.get(String(o.stakeholder_id))!.memberId,
      type: 'warrant',
      planId: null,
      poolId: null,
      securityId,
      vestingScheduleId: null,
      terms: {
        quantity,
        exercisePrice: amount(o.exercise_price),
        grantDate: String(o.date),
        expirationDate: str(o.warrant_expiration_date) ?? null,
      },
    });
  }

  protected convertible(l: Located): Done {
    const o = l.object;
    const kind = String(o.convertible_type);
    if (kind !== 'SAFE' && kind !== 'NOTE') {
      this.warn(l, 'convertible_type', `${kind} has no counterpart (SAFEs and notes do)`);
      return 'unsupported';
    }
    const invested = obj(o.investment_amount)!;
    this.notes(o, 'holdingType');
    const triggers = arr(o.conversion_triggers).map((t) => obj(t)!);
    const mechanism = triggers
      .map((t) => obj(obj(t.conversion_right)?.conversion_mechanism))
      .find(
        (m) => m?.type === (kind === 'SAFE' ? 'SAFE_CONVERSION' : 'CONVERTIBLE_NOTE_CONVERSION'),
      );
    const cap = amount(mechanism?.conversion_valuation_cap);
    const discount = percent(mechanism?.conversion_discount);
    const date = String(o.date);
    this.warn(
      l,
      'conversion_triggers',
      'conversion triggers are not kept: only the conversion terms',
    );
    let terms: HoldingTerms;
    if (kind === 'SAFE') {
      terms = {
        amount: canonical(String(invested.amount)),
        currency: String(invested.currency),
        safeType: mechanism?.conversion_timing === 'PRE_MONEY' ? 'pre_money' : 'post_money',
        valuationCap: cap,
        discount,
        mfn: mechanism?.conversion_mfn === true,
        proRata: this.note<boolean>(o, 'proRata') ?? o.pro_rata !== undefined,
        issueDate: date,
      };
    } else {
      const rates = arr(mechanism?.interest_rates).map((r) => obj(r)!);
      if (rates.length > 1)
        this.warn(l, 'conversion_triggers', 'only the first interest rate is kept');
      const maturity =
        this.note<string>(o, 'maturityDate') ??
        triggers.find((t) => t.type === 'AUTOMATIC_ON_DATE' && str(t.trigger_date))?.trigger_date ??
        rates[0]?.accrual_end_date;
      if (!str(maturity)) {
        this.problem(
          l,
          'conversion_triggers',
          'a note needs a maturity date (an AUTOMATIC_ON_DATE trigger)',
        );
        return false;
      }
      terms = {
        principal: canonical(String(invested.amount)),
        currency: String(invested.currency),
        interestRate: this.note<string>(o, 'interestRate') ?? percent(rates[0]?.rate) ?? '0',
        interestType: mechanism?.compounding_type === 'COMPOUNDING' ? 'compound' : 'simple',
        dayCount: mechanism?.day_count_convention === '30_360' ? '30/360' : 'actual/365',
        issueDate: date,
        maturityDate: String(maturity),
        valuationCap: cap,
        discount,
      };
    }
    return this.addHolding(l, 'TX_CONVERTIBLE_ISSUANCE', {
      id: this.newId(),
      memberId: this.members.get(String(o.stakeholder_id))!.memberId,
      type: kind === 'SAFE' ? 'safe' : 'convertible_note',
      planId: null,
      poolId: null,
      securityId: null,
      vestingScheduleId: null,
      terms,
    });
  }

  /** The one resulting stock issuance of an exercise or conversion. */
  protected oneResult(l: Located): Located | null {
    const results = this.resulting(l);
    if (results.length !== 1) {
      this.problem(l, 'resulting_security_ids', 'must name exactly one resulting stock issuance');
      return null;
    }
    return results[0];
  }

  protected exercise(
    l: Located,
    type: 'TX_EQUITY_COMPENSATION_EXERCISE' | 'TX_WARRANT_EXERCISE',
  ): boolean {
    const o = l.object;
    const holdingId = this.target(l, 'holding');
    const result = this.oneResult(l);
    if (!holdingId || !result) return false;
    const h = this.state.holdings.get(holdingId)!;
    const shares = this.quantity(result, 'quantity', result.object.quantity);
    if (!shares) return false;
    if (o.quantity !== undefined && !toDecimal(String(o.quantity)).eq(toDecimal(shares))) {
      this.problem(
        l,
        'quantity',
        `the resulting security holds ${shares}, not ${String(o.quantity)}`,
      );
      return false;
    }
    if (this.classes.get(String(result.object.stock_class_id)) !== h.securityId) {
      this.problem(
        l,
        'resulting_security_ids',
        'the resulting security is not of the class the holding is exercised into',
      );
      return false;
    }
    const shareholdingId = this.newId();
    const ok = this.record(l, {
      type,
      effectiveDate: String(o.date),
      payload: {
        holdingId,
        requestId: null,
        quantity: shares,
        date: String(o.date),
        paymentMethod: this.note<string>(o, 'paymentMethod') ?? str(o.consideration_text) ?? null,
        shareholdingId,
        legendIds: arr(result.object.stock_legend_ids).map((id) => this.legends.get(String(id))!),
      },
    });
    if (!ok) return false;
    this.issued(result, String(result.object.security_id), {
      kind: 'shareholding',
      id: shareholdingId,
    });
    const left = h.quantity
      ? toDecimalString(h.quantity.minus(h.exercised).minus(h.cancelled))
      : null;
    this.balance(l, { kind: 'holding', id: holdingId }, left);
    return true;
  }

  protected holdingCancellation(
    l: Located,
    type: 'TX_EQUITY_COMPENSATION_CANCELLATION' | 'TX_WARRANT_CANCELLATION',
  ): boolean {
    const o = l.object;
    const holdingId = this.target(l, 'holding');
    const quantity = this.quantity(l, 'quantity', o.quantity);
    if (!holdingId || !quantity) return false;
    const h = this.state.holdings.get(holdingId)!;
    const outstanding = h.quantity!.minus(h.exercised).minus(h.cancelled);
    const reason = str(o.reason_text) ?? 'cancellation';
    if (toDecimal(quantity).gt(outstanding) || h.status !== 'active') {
      this.problem(
        l,
        'quantity',
        `${type} ${String(o.id)} cancels ${quantity} of the security ${String(o.security_id)}, which has ${h.status === 'active' ? toDecimalString(outstanding) : `nothing (${h.status})`} outstanding`,
      );
      return false;
    }
    if (!toDecimal(quantity).eq(outstanding)) {
      const kept = toDecimalString(h.quantity!.minus(toDecimal(quantity)));
      this.warn(
        l,
        'quantity',
        `a partial cancellation is recorded as a correction of the quantity to ${kept}`,
      );
      const ok = this.record(l, {
        type: 'HOLDING_AMENDED',
        effectiveDate: String(o.date),
        payload: { holdingId, changes: { terms: { quantity: kept } } },
      });
      if (ok)
        this.balance(
          l,
          { kind: 'holding', id: holdingId },
          toDecimalString(outstanding.minus(toDecimal(quantity))),
        );
      return ok;
    }
    if (type === 'TX_WARRANT_CANCELLATION') {
      return this.record(l, {
        type,
        effectiveDate: String(o.date),
        payload: { holdingId, quantity, reason },
      });
    }
    const behavior = [...this.plans.values()].find((p) => p.poolId === h.poolId)?.behavior;
    return this.record(l, {
      type,
      effectiveDate: String(o.date),
      payload: {
        holdingId,
        quantity,
        returnedToPool: this.note<boolean>(o, 'returnedToPool') ?? behavior !== 'RETIRE',
        reason,
      },
    });
  }

  protected convertibleCancellation(l: Located): boolean {
    const holdingId = this.target(l, 'holding');
    if (!holdingId) return false;
    const repayment = this.note<{ amount: string; date: string }>(l.object, 'repayment');
    if (repayment) {
      this.keep(l.object, 'amount');
      return this.record(l, {
        type: 'TX_CONVERTIBLE_REPAYMENT',
        effectiveDate: String(repayment.date),
        payload: {
          holdingId,
          amount: canonical(String(repayment.amount)),
          date: String(repayment.date),
        },
      });
    }
    return this.record(l, {
      type: 'TX_CONVERTIBLE_CANCELLATION',
      effectiveDate: String(l.object.date),
      payload: { holdingId, reason: str(l.object.reason_text) ?? 'cancellation' },
    });
  }

  protected conversion(l: Located): boolean {
    const o = l.object;
    const holdingId = this.target(l, 'holding');
    const result = this.oneResult(l);
    if (!holdingId || !result) return false;
    const h = this.state.holdings.get(holdingId)!;
    const shares = this.quantity(result, 'quantity', result.object.quantity);
    if (!shares) return false;
    const converted = canonical(
      h.terms.amount ?? toDecimalString(h.principalOutstanding ?? toDecimal(0)),
    );
    const price =
      amount(result.object.share_price) ??
      toDecimalString(toDecimal(converted).div(toDecimal(shares)).toDecimalPlaces(10));
    const shareholdingId = this.newId();
    const noted = this.note<Record<string, string | null>>(o, 'conversion');
    // The export's reason text says what the note holds.
    if (noted) this.keep(o, 'reason_text');
    const ok = this.record(l, {
      type: 'TX_CONVERTIBLE_CONVERSION',
      effectiveDate: String(o.date),
      payload: {
        holdingId,
        conversion: {
          date: String(o.date),
          shareholdingId,
          securityId: this.classes.get(String(result.object.stock_class_id))!,
          shares,
          conversionPrice: noted?.conversionPrice ?? price,
          method: (noted?.method as 'cap' | 'discount' | 'price' | undefined) ?? 'price',
          conversionAmount: noted?.conversionAmount ?? converted,
          roundPricePerShare: noted?.roundPricePerShare ?? price,
          preMoneyValuation: noted?.preMoneyValuation ?? null,
        },
        legendIds: arr(result.object.stock_legend_ids).map((id) => this.legends.get(String(id))!),
      },
    });
    if (ok)
      this.issued(result, String(result.object.security_id), {
        kind: 'shareholding',
        id: shareholdingId,
      });
    return ok;
  }

  /** The first vesting start of a grant is its vestingStartDate (set at issuance); later ones amend it. */
  protected vestingStart(l: Located): Done {
    const security = String(l.object.security_id);
    if (this.issuedBy.get(security)?.object.object_type === 'TX_STOCK_ISSUANCE') {
      this.warn(l, '', 'vesting of shares has no counterpart: TX_VESTING_START not imported');
      return 'unsupported';
    }
    // The first one is the grant's vestingStartDate (it may come before the grant's date).
    if (this.vestingStarts.get(security) === l) return true;
    const holdingId = this.target(l, 'holding');
    if (!holdingId) return false;
    return this.record(l, {
      type: 'HOLDING_AMENDED',
      effectiveDate: String(l.object.date),
      payload: { holdingId, changes: { terms: { vestingStartDate: String(l.object.date) } } },
    });
  }
}
