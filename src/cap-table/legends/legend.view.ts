import { TimestampView, UuidView } from '../view-fields';
import { Legend } from './legend.entity';

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

export const toLegendView = (l: Legend): LegendView => ({
  id: l.id,
  organization: l.organizationId,
  name: l.name,
  text: l.text,
  isDefault: l.isDefault,
  created: l.created.toISOString(),
});
