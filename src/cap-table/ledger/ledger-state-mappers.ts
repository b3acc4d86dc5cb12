import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { CapitalChange } from '../capital-changes/capital-change.entity';
import { Legend } from '../legends/legend.entity';
import { Security } from '../securities/security.entity';
import { ShareBlock } from '../shareholdings/share-block.entity';
import { Shareholding } from '../shareholdings/shareholding.entity';
import { Valuation } from '../valuations/valuation.entity';
import { Block, LegendState, SecurityState, ShareholdingState } from './ledger-state';
import type { CapitalChangeRecord, ValuationRecord } from './transaction-types';

/** The cap table's rows as the ledger state's records (to…) and back (from…). */

const dec = (v: string | null) => (v === null ? null : toDecimalString(toDecimal(v)));

export function toSecurityState(s: Security): SecurityState {
  return {
    id: s.id,
    name: s.name,
    classType: s.classType,
    idPrefix: s.idPrefix,
    authorized: toDecimal(s.authorizedShares),
    issued: toDecimal(s.issuedShares),
    reserved: toDecimal(s.reservedShares),
    parValue: dec(s.parValue),
    originalIssuePrice: dec(s.originalIssuePrice),
    currency: s.currency,
    seniority: s.seniority,
    liquidationPreferenceMultiple: dec(s.liquidationPreferenceMultiple),
    participating: s.participating,
    participationCapMultiple: dec(s.participationCapMultiple),
    conversionRatio: dec(s.conversionRatio)!,
    votesPerShare: dec(s.votesPerShare)!,
    boardApprovalDate: s.boardApprovalDate,
    deleted: s.deletedAt !== null,
    nextCertificateNumber: s.nextCertificateNumber,
    nextShareNumber: toDecimal(s.nextShareNumber),
  };
}

/** `now`: when a record deleted by this write is deleted (the writer's clock). */
export function fromSecurityState(s: SecurityState, now: Date): Partial<Security> {
  const { authorized, issued, reserved, deleted, nextShareNumber, ...rest } = s;
  return {
    ...rest,
    authorizedShares: toDecimalString(authorized),
    issuedShares: toDecimalString(issued),
    reservedShares: toDecimalString(reserved),
    nextShareNumber: toDecimalString(nextShareNumber),
    deletedAt: deleted ? now : null,
  };
}

export function toShareholdingState(h: Shareholding): ShareholdingState {
  return {
    id: h.id,
    memberId: h.memberId,
    securityId: h.securityId,
    quantity: toDecimal(h.quantity),
    pricePerShare: dec(h.pricePerShare),
    issueDate: h.issueDate,
    certificateNumber: h.certificateNumber,
    status: h.status,
    legendIds: h.legendIds,
    consideration: h.consideration,
    transferredFromId: h.transferredFromId,
  };
}

export function fromShareholdingState(h: ShareholdingState): Partial<Shareholding> {
  return { ...h, quantity: toDecimalString(h.quantity) };
}

export const fromLegendState = (l: LegendState, now: Date): Partial<Legend> => ({
  id: l.id,
  name: l.name,
  text: l.text,
  isDefault: l.isDefault,
  deletedAt: l.deleted ? now : null,
});

export const toLegendState = (l: Legend): LegendState => ({
  id: l.id,
  name: l.name,
  text: l.text,
  isDefault: l.isDefault,
  deleted: l.deletedAt !== null,
});

export const toBlock = (b: ShareBlock): Block => ({
  from: toDecimal(b.fromNumber),
  to: toDecimal(b.toNumber),
});

export const toValuationRecord = (v: Valuation): ValuationRecord => ({
  id: v.id,
  type: v.type,
  pricePerShare: dec(v.pricePerShare)!,
  securityId: v.securityId,
  effectiveDate: v.effectiveDate,
  provider: v.provider,
  reportFileId: v.reportFileId,
});

export const toCapitalChangeRecord = (c: CapitalChange): CapitalChangeRecord => ({
  id: c.id,
  memberId: c.memberId,
  entityId: c.entityId,
  date: c.date,
  amount: dec(c.amount)!,
  currency: c.currency,
  type: c.type,
  description: c.description,
});
