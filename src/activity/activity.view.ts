import { ApiProperty } from '@nestjs/swagger';
import { ActivityAction } from './activity-action.entity';

/** An activity action (spec section 2). */
export class ActivityActionView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  /** Dot notation: `member.added`, `shareholding.created`, or what a `POST` wrote. */
  @ApiProperty({ example: 'member.added' })
  type: string;
  description: string;
  /** The user who acted; null for the service's own actions. */
  @ApiProperty({ type: String, format: 'uuid' })
  userId: string | null;
  @ApiProperty({ format: 'date-time' })
  created: string;
  /** Free-form JSON object (for domain events: the record and its previous attributes). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata: Record<string, unknown>;
}

export const toActivityActionView = (a: ActivityAction): ActivityActionView => ({
  id: a.id,
  type: a.type,
  description: a.description,
  userId: a.userId,
  created: a.created.toISOString(),
  metadata: a.metadata ?? {},
});
