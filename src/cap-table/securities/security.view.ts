import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { Security } from './security.entity';

export interface SecurityView {
  id: string;
  organization: string;
  name: string;
  classType: 'common' | 'preferred';
  idPrefix: string;
  authorizedShares: string;
  issuedShares: string;
  /** Held back for stock plans (reserved, less exercised and retired): not issuable otherwise. */
  reservedShares: string;
  parValue: string | null;
  originalIssuePrice: string | null;
  currency: string;
  seniority: number;
  liquidationPreferenceMultiple: string | null;
  participating: boolean;
  participationCapMultiple: string | null;
  conversionRatio: string;
  votesPerShare: string;
  boardApprovalDate: string | null;
  created: string;
  updated: string;
}

const dec = (v: string | null) => (v === null ? null : toDecimalString(toDecimal(v)));

export const toSecurityView = (s: Security): SecurityView => ({
  id: s.id,
  organization: s.organizationId,
  name: s.name,
  classType: s.classType,
  idPrefix: s.idPrefix,
  authorizedShares: dec(s.authorizedShares)!,
  issuedShares: dec(s.issuedShares)!,
  reservedShares: dec(s.reservedShares)!,
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
  created: s.created.toISOString(),
  updated: s.updated.toISOString(),
});
