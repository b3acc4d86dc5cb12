import type { ShareholdingStatus } from '../ledger-state';
import type { TransactionType } from '../transaction-types';
import type { ShareholdingEnding, TransactionDefinition } from './definition';
import type { OcfImportMapping, OcfMapping, OcfObjectImport } from './ocf-mapping';
import { capitalChangeAmended } from './capital-change-amended';
import { capitalChangeRecorded } from './capital-change-recorded';
import { convertibleCancellation } from './convertible-cancellation';
import { convertibleConversion } from './convertible-conversion';
import { convertibleIssuance } from './convertible-issuance';
import { convertibleRepayment } from './convertible-repayment';
import { equityCompensationCancellation } from './equity-compensation-cancellation';
import { equityCompensationExercise } from './equity-compensation-exercise';
import { equityCompensationIssuance } from './equity-compensation-issuance';
import { exerciseRequestRejected } from './exercise-request-rejected';
import { exerciseRequested } from './exercise-requested';
import { holdingAmended } from './holding-amended';
import { stockClassAuthorizedSharesAdjustment } from './stock-class-authorized-shares-adjustment';
import { stockClassCreated } from './stock-class-created';
import { stockClassDeleted } from './stock-class-deleted';
import { stockClassSplit } from './stock-class-split';
import { stockClassUpdated } from './stock-class-updated';
import { stockCancellation } from './stock-cancellation';
import { stockIssuance } from './stock-issuance';
import { stockIssuanceAmended } from './stock-issuance-amended';
import { stockLegendTemplateCreated } from './stock-legend-template-created';
import { stockLegendTemplateDeleted } from './stock-legend-template-deleted';
import { stockLegendTemplateUpdated } from './stock-legend-template-updated';
import { stockPlanCreated } from './stock-plan-created';
import { stockPlanDeleted } from './stock-plan-deleted';
import { stockPlanPoolAdjustment } from './stock-plan-pool-adjustment';
import { stockPlanPoolCreated } from './stock-plan-pool-created';
import { stockPlanPoolDeleted } from './stock-plan-pool-deleted';
import { stockPlanPoolUpdated } from './stock-plan-pool-updated';
import { stockPlanUpdated } from './stock-plan-updated';
import { stockRepurchase } from './stock-repurchase';
import { stockTransfer } from './stock-transfer';
import { valuationAmended } from './valuation-amended';
import { valuationRecorded } from './valuation-recorded';
import { vestingTermsCreated } from './vesting-terms-created';
import { vestingTermsDeleted } from './vesting-terms-deleted';
import { warrantCancellation } from './warrant-cancellation';
import { warrantExercise } from './warrant-exercise';
import { warrantIssuance } from './warrant-issuance';

export type { TransactionDefinition } from './definition';
export type {
  ImportedPlan,
  ManifestEntry,
  OcfDone,
  OcfExportContext,
  OcfImportContext,
  OcfTarget,
} from './ocf-mapping';

/** Every transaction type's definition: a type missing here does not compile. */
export const TRANSACTIONS = {
  STOCK_CLASS_CREATED: stockClassCreated,
  STOCK_CLASS_UPDATED: stockClassUpdated,
  STOCK_CLASS_DELETED: stockClassDeleted,
  TX_STOCK_CLASS_AUTHORIZED_SHARES_ADJUSTMENT: stockClassAuthorizedSharesAdjustment,
  TX_STOCK_CLASS_SPLIT: stockClassSplit,
  STOCK_LEGEND_TEMPLATE_CREATED: stockLegendTemplateCreated,
  STOCK_LEGEND_TEMPLATE_UPDATED: stockLegendTemplateUpdated,
  STOCK_LEGEND_TEMPLATE_DELETED: stockLegendTemplateDeleted,
  TX_STOCK_ISSUANCE: stockIssuance,
  TX_STOCK_TRANSFER: stockTransfer,
  TX_STOCK_CANCELLATION: stockCancellation,
  STOCK_ISSUANCE_AMENDED: stockIssuanceAmended,
  VALUATION_RECORDED: valuationRecorded,
  VALUATION_AMENDED: valuationAmended,
  CAPITAL_CHANGE_RECORDED: capitalChangeRecorded,
  CAPITAL_CHANGE_AMENDED: capitalChangeAmended,
  VESTING_TERMS_CREATED: vestingTermsCreated,
  VESTING_TERMS_DELETED: vestingTermsDeleted,
  STOCK_PLAN_CREATED: stockPlanCreated,
  STOCK_PLAN_UPDATED: stockPlanUpdated,
  TX_STOCK_PLAN_POOL_ADJUSTMENT: stockPlanPoolAdjustment,
  STOCK_PLAN_DELETED: stockPlanDeleted,
  STOCK_PLAN_POOL_CREATED: stockPlanPoolCreated,
  STOCK_PLAN_POOL_UPDATED: stockPlanPoolUpdated,
  STOCK_PLAN_POOL_DELETED: stockPlanPoolDeleted,
  TX_EQUITY_COMPENSATION_ISSUANCE: equityCompensationIssuance,
  TX_WARRANT_ISSUANCE: warrantIssuance,
  TX_CONVERTIBLE_ISSUANCE: convertibleIssuance,
  HOLDING_AMENDED: holdingAmended,
  TX_EQUITY_COMPENSATION_CANCELLATION: equityCompensationCancellation,
  TX_WARRANT_CANCELLATION: warrantCancellation,
  TX_CONVERTIBLE_CANCELLATION: convertibleCancellation,
  EXERCISE_REQUESTED: exerciseRequested,
  EXERCISE_REQUEST_REJECTED: exerciseRequestRejected,
  TX_EQUITY_COMPENSATION_EXERCISE: equityCompensationExercise,
  TX_WARRANT_EXERCISE: warrantExercise,
  TX_CONVERTIBLE_REPAYMENT: convertibleRepayment,
  TX_CONVERTIBLE_CONVERSION: convertibleConversion,
  TX_STOCK_REPURCHASE: stockRepurchase,
} satisfies { [T in TransactionType]: TransactionDefinition<T> };

/** The ways a shareholding ends, one per status, from the types that end one. */
export const SHAREHOLDING_ENDINGS: ReadonlyMap<ShareholdingStatus, ShareholdingEnding> = new Map(
  (Object.values(TRANSACTIONS) as TransactionDefinition<TransactionType>[]).flatMap((d) =>
    d.endsShareholdingAs ? [[d.endsShareholdingAs.status, d.endsShareholdingAs] as const] : [],
  ),
);

/** A shareholding's statuses: `active`, and each the registry's types end one with. */
export const SHAREHOLDING_STATUSES: readonly ShareholdingStatus[] = [
  'active',
  ...SHAREHOLDING_ENDINGS.keys(),
];

/** Every transaction type, in the registry's order. */
export const TRANSACTION_TYPES = Object.keys(TRANSACTIONS) as TransactionType[];

/** The types whose payload refers to something of `kind`, with the path to it. */
export function referring(
  kind: keyof NonNullable<TransactionDefinition<TransactionType>['refers']>,
): { type: TransactionType; paths: readonly (readonly string[])[] }[] {
  return (Object.keys(TRANSACTIONS) as TransactionType[]).flatMap((type) => {
    const refers = (TRANSACTIONS[type] as TransactionDefinition<TransactionType>).refers;
    const found = kind === 'members' ? refers?.members : refers?.[kind] && [refers[kind]];
    return found?.length ? [{ type, paths: found }] : [];
  });
}

/** The types whose OCF export reads only some of the payload when the row has what they made. */
export const payloadWithMade = (): { type: TransactionType; members: readonly string[] }[] =>
  (Object.keys(TRANSACTIONS) as TransactionType[]).flatMap((type) => {
    const members = ocfMappingOf(type)?.export.payloadWithMade;
    return members ? [{ type, members }] : [];
  });

/** The definition of `type`, typed for its payload. */
export const definitionOf = <T extends TransactionType>(type: T): TransactionDefinition<T> =>
  (TRANSACTIONS as { [K in TransactionType]: TransactionDefinition<K> })[type];

/** The OCF mapping of `type` (none: the export keeps its entries in the manifest's comments). */
export const ocfMappingOf = (type: TransactionType): OcfMapping<TransactionType> | undefined =>
  (TRANSACTIONS[type] as TransactionDefinition<TransactionType> | undefined)?.ocf;

const ocfImports = (Object.keys(TRANSACTIONS) as TransactionType[]).flatMap((type) => {
  const imports = ocfMappingOf(type)?.import;
  return imports ? [{ type, imports }] : [];
});

/**
 * OCF object type → how the import reads it, from the definitions that import it: the one that
 * claims it in `objects` (two claiming one is refused when the registry loads), else a
 * definition's fallback.
 */
export const OCF_IMPORTERS: ReadonlyMap<string, OcfObjectImport> = (() => {
  const importers = new Map<string, OcfObjectImport>();
  for (const { type, imports } of ocfImports) {
    for (const [objectType, read] of Object.entries(imports.objects ?? {})) {
      if (importers.has(objectType)) throw new Error(`${objectType} is imported twice (${type})`);
      importers.set(objectType, read);
    }
  }
  for (const { imports } of ocfImports) {
    for (const [objectType, read] of Object.entries(imports.fallbacks ?? {})) {
      if (!importers.has(objectType)) importers.set(objectType, read);
    }
  }
  return importers;
})();

/** Log entry type → how the import reads it back from the manifest's comments. */
export const OCF_MANIFEST_IMPORTERS: ReadonlyMap<
  string,
  NonNullable<OcfImportMapping['fromManifest']>
> = new Map(
  ocfImports.flatMap(({ type, imports }) =>
    imports.fromManifest ? [[type, imports.fromManifest] as const] : [],
  ),
);
