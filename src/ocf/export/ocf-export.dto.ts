import { DateField } from '../../common';

export class OcfExportQuery {
  /**
   * The package as the cap table stood on this date (not in the future): transactions effective
   * on or before it, objects as they stood then. Default: everything recorded.
   */
  @DateField({ optional: true })
  asOf?: string;
}
