import { TimestampView, UuidView } from '../view-fields';

/** A legend template (OCF StockLegendTemplate). */
export class LegendView {
  @UuidView()
  id: string;
  @UuidView()
  organization: string;
  name: string;
  /** The wording printed on certificates. */
  text: string;
  /** Put on new shareholdings that name no legends. */
  isDefault: boolean;
  @TimestampView()
  created: string;
}
