import { DateField } from '../../common';

export class DashboardQuery {
  /** The cap table as it stood at the end of this date (the ledger's moves); default today. */
  @DateField({ optional: true })
  asOf?: string;
}
