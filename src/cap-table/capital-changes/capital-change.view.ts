import { ApiProperty } from '@nestjs/swagger';
import { toDecimal, toDecimalString } from '../../../libs/cap-math';
import { DateView, DecimalView, TimestampView, UuidView } from '../view-fields';
import { CAPITAL_CHANGE_TYPES } from './capital-change.dto';
import { CapitalChange } from './capital-change.entity';

/** A capital contribution or distribution of a member's entity. */
export class CapitalChangeView {
  @UuidView()
  id: string;
  @UuidView()
  organization: string;
  /** The member whose entity contributed or received the money. */
  @UuidView()
  member: string;
  /** The member's entity. */
  @UuidView()
  entity: string;
  @DateView()
  date: string;
  @DecimalView({ example: '25000' })
  amount: string;
  /** ISO 4217. */
  @ApiProperty({ example: 'USD' })
  currency: string;
  @ApiProperty({ enum: CAPITAL_CHANGE_TYPES })
  type: (typeof CAPITAL_CHANGE_TYPES)[number];
  description: string | null;
  @TimestampView()
  created: string;
  @TimestampView()
  updated: string;
}

export const toCapitalChangeView = (c: CapitalChange): CapitalChangeView => ({
  id: c.id,
  organization: c.organizationId,
  member: c.memberId,
  entity: c.entityId,
  date: c.date,
  amount: toDecimalString(toDecimal(c.amount)),
  currency: c.currency,
  type: c.type,
  description: c.description,
  created: c.created.toISOString(),
  updated: c.updated.toISOString(),
});
