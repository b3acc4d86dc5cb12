import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import {
  addShareholding,
  assertActive,
  assertLegends,
  found,
  issue,
  legend,
  positive,
  resize,
  security,
  shareholding,
  takeLowest,
} from './rules';
import { LedgerRuleError, LedgerState } from './state';
import type { LedgerTransaction } from './transaction-types';

/**
 * The rules of classes, legends and shares, valuations and capital changes: applies `tx` when it
 * is one of theirs (true), else leaves it to the incentive rules (false).
 */
export function applyStockTransaction(
  state: LedgerState,
  tx: LedgerTransaction,
  strict: boolean,
): boolean {
  const p = tx.payload;
  switch (tx.type) {
    case 'STOCK_CLASS_CREATED': {
      const { authorizedShares, ...rest } = (p as typeof tx.payload).security;
      state.securities.set(rest.id, {
        ...rest,
        // Classes logged before the field existed are not participating.
        participating: rest.participating ?? false,
        authorized: toDecimal(authorizedShares),
        issued: toDecimal(0),
        reserved: toDecimal(0),
        deleted: false,
        nextCertificateNumber: 1,
        nextShareNumber: toDecimal(1),
      });
      state.touched.securities.add(rest.id);
      return true;
    }
    case 'STOCK_CLASS_UPDATED': {
      const { securityId, changes } = p as typeof tx.payload;
      Object.assign(security(state, securityId), changes);
      state.touched.securities.add(securityId);
      return true;
    }
    case 'STOCK_CLASS_DELETED': {
      const { securityId } = p as typeof tx.payload;
      const s = security(state, securityId);
      if (strict && !s.issued.isZero()) {
        throw new LedgerRuleError('conflict', `class ${s.name} has issued shares`);
      }
      if (strict && !s.reserved.isZero()) {
        throw new LedgerRuleError('conflict', `class ${s.name} has shares reserved for a plan`);
      }
      s.deleted = true;
      state.touched.securities.add(securityId);
      return true;
    }
    case 'TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT': {
      const { securityId, newSharesAuthorized } = p as typeof tx.payload;
      const s = security(state, securityId);
      const authorized = toDecimal(newSharesAuthorized);
      if (strict && authorized.lt(s.issued.plus(s.reserved))) {
        throw new LedgerRuleError(
          'insufficientShares',
          `class ${s.name} has ${toDecimalString(s.issued)} shares issued${s.reserved.isZero() ? '' : ` and ${toDecimalString(s.reserved)} reserved for plans`}: it cannot authorize fewer than ${toDecimalString(s.issued.plus(s.reserved))}`,
        );
      }
      s.authorized = authorized;
      state.touched.securities.add(securityId);
      return true;
    }
    case 'STOCK_LEGEND_TEMPLATE_CREATED': {
      const { legend } = p as typeof tx.payload;
      state.legends.set(legend.id, { ...legend, deleted: false });
      state.touched.legends.add(legend.id);
      return true;
    }
    case 'STOCK_LEGEND_TEMPLATE_UPDATED': {
      const { legendId, changes } = p as typeof tx.payload;
      Object.assign(legend(state, legendId), changes);
      state.touched.legends.add(legendId);
      return true;
    }
    case 'STOCK_LEGEND_TEMPLATE_DELETED': {
      const { legendId } = p as typeof tx.payload;
      const l = legend(state, legendId);
      const user = [...state.shareholdings.values()].find(
        (h) => h.status === 'active' && h.legendIds.includes(legendId),
      );
      if (strict && user) {
        throw new LedgerRuleError(
          'conflict',
          `legend ${l.name} is on shareholding ${user.certificateNumber}`,
        );
      }
      l.deleted = true;
      state.touched.legends.add(legendId);
      return true;
    }
    case 'TX_STOCK_ISSUANCE': {
      const i = p as typeof tx.payload;
      const s = security(state, i.securityId);
      const quantity = positive(i.quantity, 'quantity');
      if (strict && s.deleted) throw new LedgerRuleError('conflict', `class ${s.name} was deleted`);
      if (strict) assertLegends(state, i.legendIds);
      issue(state, s, quantity, strict);
      addShareholding(state, s, {
        id: i.shareholdingId,
        memberId: i.memberId,
        securityId: i.securityId,
        quantity,
        pricePerShare: i.pricePerShare,
        issueDate: i.issueDate,
        legendIds: i.legendIds,
        consideration: i.consideration,
      });
      return true;
    }
    case 'TX_STOCK_TRANSFER': {
      const t = p as typeof tx.payload;
      const source = shareholding(state, t.sourceId);
      const quantity = positive(t.quantity, 'quantity');
      if (strict) assertActive(source);
      if (strict && quantity.gt(source.quantity)) {
        throw new LedgerRuleError(
          'insufficientShares',
          `shareholding ${source.certificateNumber} holds ${toDecimalString(source.quantity)}, less than ${t.quantity}`,
        );
      }
      const s = security(state, source.securityId);
      source.quantity = source.quantity.minus(quantity);
      if (source.quantity.isZero()) source.status = 'transferred';
      state.shareholdings.set(t.destinationId, {
        id: t.destinationId,
        memberId: t.toMemberId,
        securityId: source.securityId,
        quantity,
        pricePerShare: t.pricePerShare ?? source.pricePerShare,
        issueDate: t.date,
        certificateNumber: `${s.idPrefix}${s.nextCertificateNumber++}`,
        status: 'active',
        legendIds: [...source.legendIds],
        consideration: null,
        transferredFromId: source.id,
      });
      const [moved, kept] = takeLowest(state.blocks.get(source.id) ?? [], quantity);
      state.blocks.set(source.id, kept);
      state.blocks.set(t.destinationId, moved);
      state.touched.shareholdings.add(source.id).add(t.destinationId);
      state.touched.securities.add(s.id);
      return true;
    }
    case 'TX_STOCK_CANCELLATION': {
      const c = p as typeof tx.payload;
      const h = shareholding(state, c.shareholdingId);
      if (strict) assertActive(h);
      const s = security(state, h.securityId);
      s.issued = s.issued.minus(h.quantity);
      h.status = 'voided';
      // Voided shares return to the unissued balance; their numbers are retired.
      state.blocks.set(h.id, []);
      state.touched.shareholdings.add(h.id);
      state.touched.securities.add(s.id);
      return true;
    }
    case 'STOCK_ISSUANCE_AMENDED': {
      const { shareholdingId, changes } = p as typeof tx.payload;
      const h = shareholding(state, shareholdingId);
      if (strict) assertActive(h);
      if (changes.legendIds && strict) assertLegends(state, changes.legendIds);
      if (changes.quantity !== undefined)
        resize(state, h, positive(changes.quantity, 'quantity'), strict);
      const { quantity: _quantity, ...rest } = changes;
      Object.assign(h, rest);
      state.touched.shareholdings.add(h.id);
      return true;
    }
    case 'VALUATION_RECORDED': {
      const { valuation } = p as typeof tx.payload;
      state.valuations.set(valuation.id, { ...valuation });
      state.touched.valuations.add(valuation.id);
      return true;
    }
    case 'VALUATION_AMENDED': {
      const { valuationId, changes } = p as typeof tx.payload;
      Object.assign(found(state.valuations, valuationId, 'valuation'), changes);
      state.touched.valuations.add(valuationId);
      return true;
    }
    case 'CAPITAL_CHANGE_RECORDED': {
      const { capitalChange } = p as typeof tx.payload;
      state.capitalChanges.set(capitalChange.id, { ...capitalChange });
      state.touched.capitalChanges.add(capitalChange.id);
      return true;
    }
    case 'CAPITAL_CHANGE_AMENDED': {
      const { capitalChangeId, changes } = p as typeof tx.payload;
      Object.assign(found(state.capitalChanges, capitalChangeId, 'capital change'), changes);
      state.touched.capitalChanges.add(capitalChangeId);
      return true;
    }
    default:
      return false;
  }
}
