import { ActivityAction } from './activity-action.entity';

/** An activity action (spec section 2). */
export interface ActivityActionView {
  id: string;
  type: string;
  description: string;
  userId: string | null;
  created: string;
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
