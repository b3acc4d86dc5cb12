import { documentedView } from './definition';
import { previousAttributes } from '../../../events';
import { describeChanges } from '../command-values';
import type { DescribedEvent } from './definition';

/** The fields `security.updated` describes, in this order. */
const DESCRIBED = [
  'name',
  'classType',
  'idPrefix',
  'parValue',
  'originalIssuePrice',
  'currency',
  'seniority',
  'liquidationPreferenceMultiple',
  'participating',
  'participationCapMultiple',
  'conversionRatio',
  'votesPerShare',
  'boardApprovalDate',
  'authorizedShares',
];

/**
 * `security.updated`, recorded by a class's replacement (its fields and authorized shares, one
 * command) and by more authorized shares (one adjustment): its type, catalogue and audience, and
 * how it reads the class's views before and after.
 */
export const SECURITY_UPDATED = {
  type: 'security.updated',
  public: true,
  audience: 'canViewOrganization',
  object: documentedView('SecurityView'),
} as const;

export function describeSecurityUpdate(before: object, after: object): DescribedEvent {
  const was = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  // The time of the change is not one of the class's changes.
  const previous = previousAttributes(was, { ...now, updated: was.updated });
  return {
    object: now,
    previous,
    description: `class ${String(was.name)}: ${describeChanges(
      was,
      now,
      DESCRIBED.filter((k) => k in previous),
    )}`,
  };
}
