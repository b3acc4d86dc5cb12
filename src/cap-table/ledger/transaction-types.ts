import { Type, type Static } from '@sinclair/typebox';
import { DateText, DecimalText, Id, Literals, Nullable } from './payload-fields';

/**
 * The kinds of change the equity transaction log records: the keys of TransactionPayloads. Open
 * Cap Format's transaction types keep their names (`TX_STOCK_ISSUANCE` ...); changes OCF models
 * as objects rather than transactions (a class, a legend, a valuation) are logged under names of
 * the same style, so the log alone rebuilds every table of the cap table. A new type declares
 * its payload's schema in its own definition file (`payload`, TypeBox), adds the schema's type
 * to TransactionPayloads, and has its line in the registry (transactions/index.ts), which the
 * compiler holds to one definition per type.
 */
export type TransactionType = keyof TransactionPayloads;

export const CLASS_TYPES = ['common', 'preferred'] as const;
export type ClassType = (typeof CLASS_TYPES)[number];

/** A share class as the log carries it (decimals as strings, dates `YYYY-MM-DD`). */
export const SecurityRecord = Type.Object({
  id: Id(),
  name: Type.String(),
  classType: Literals(CLASS_TYPES),
  idPrefix: Type.String(),
  authorizedShares: DecimalText(),
  parValue: Nullable(DecimalText()),
  originalIssuePrice: Nullable(DecimalText()),
  currency: Type.String(),
  seniority: Type.Integer(),
  liquidationPreferenceMultiple: Nullable(DecimalText()),
  participating: Type.Boolean({
    description:
      'Participating preferred: after its preference it shares in what is left, as converted.',
  }),
  participationCapMultiple: Nullable(DecimalText()),
  conversionRatio: DecimalText(),
  votesPerShare: DecimalText(),
  boardApprovalDate: Nullable(DateText()),
});
export type SecurityRecord = Static<typeof SecurityRecord>;

export const LegendRecord = Type.Object({
  id: Id(),
  name: Type.String(),
  text: Type.String(),
  isDefault: Type.Boolean(),
});
export type LegendRecord = Static<typeof LegendRecord>;

export const ValuationRecord = Type.Object({
  id: Id(),
  type: Type.String(),
  pricePerShare: DecimalText(),
  securityId: Nullable(Id()),
  effectiveDate: DateText(),
  provider: Nullable(Type.String()),
  reportFileId: Nullable(Id()),
});
export type ValuationRecord = Static<typeof ValuationRecord>;

export const CapitalChangeRecord = Type.Object({
  id: Id(),
  memberId: Id(),
  entityId: Id(),
  date: DateText(),
  amount: DecimalText(),
  currency: Type.String(),
  type: Literals(['contribution', 'distribution']),
  description: Nullable(Type.String()),
});
export type CapitalChangeRecord = Static<typeof CapitalChangeRecord>;

export const SecurityChanges = Type.Partial(Type.Omit(SecurityRecord, ['id', 'authorizedShares']));
export type SecurityChanges = Static<typeof SecurityChanges>;
export const LegendChanges = Type.Partial(Type.Omit(LegendRecord, ['id']));
export type LegendChanges = Static<typeof LegendChanges>;
export const ValuationChanges = Type.Partial(Type.Omit(ValuationRecord, ['id']));
export type ValuationChanges = Static<typeof ValuationChanges>;
export const CapitalChangeChanges = Type.Partial(
  Type.Omit(CapitalChangeRecord, ['id', 'memberId', 'entityId']),
);
export type CapitalChangeChanges = Static<typeof CapitalChangeChanges>;

export const IssuanceAmendment = Type.Object({
  quantity: Type.Optional(DecimalText()),
  pricePerShare: Type.Optional(Nullable(DecimalText())),
  issueDate: Type.Optional(DateText()),
  legendIds: Type.Optional(Type.Array(Id())),
  consideration: Type.Optional(Nullable(Type.String())),
});
export type IssuanceAmendment = Static<typeof IssuanceAmendment>;

/**
 * The payload of each transaction type: everything a replay needs, ids included. Each
 * definition file adds its type, as the `Static` of the payload schema it holds (`payload`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the definitions
export interface TransactionPayloads {}

/** One entry of the log, as the reducer reads it. */
export type LedgerTransaction = {
  [T in TransactionType]: {
    id: string;
    type: T;
    effectiveDate: string;
    payload: TransactionPayloads[T];
  };
}[TransactionType];
