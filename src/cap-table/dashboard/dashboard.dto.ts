import { DateField } from '../../common';

export class DashboardQuery {
  /** The cap table as it stood on this date, replayed from the log; default today. */
  @DateField({ optional: true })
  asOf?: string;
}
