export { OcfModule } from './ocf.module';
export { OcfImportService } from './import/ocf-import.service';
export type { OcfImportResult } from './import/ocf-import.service';
export { planImport } from './import/ocf-mapping';
export type { ImportCounts, ImportPlan } from './import/ocf-mapping';
export { emptyPackage } from './import/ocf-package';
export type { OcfPackage } from './import/ocf-package';
export type { OcfProblem } from './import/ocf-problems';
// The export's OCF writers: onboarding turns its draft into the package the export would write.
export { stakeholder, stockClass, stockPlan, vestingTerms } from './export/ocf-objects';
export type { ClassState, PlanState, PoolState, ScheduleState } from './export/ocf-objects';
