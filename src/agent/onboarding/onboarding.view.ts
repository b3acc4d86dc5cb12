import { ApiProperty } from '@nestjs/swagger';
import { QUESTION_KINDS } from './draft';
import { ONBOARDING_STATUSES } from './store/onboarding.entity';
import type { OnboardingStatus, QuestionKind } from './store/onboarding.entity';
import { ITEM_SOURCES } from './store/stored-draft';
import type { ItemSource } from './store/stored-draft';

export const SHOWCASE_TYPES = [
  'organization',
  'person',
  'shareClass',
  'shareholding',
  'optionPlan',
  'optionPool',
  'optionGrant',
  'convertible',
  'vestingSchedule',
] as const;
export type ShowcaseType = (typeof SHOWCASE_TYPES)[number];

export class AnalysisStatusView {
  id: string;
  @ApiProperty({ enum: ONBOARDING_STATUSES })
  status: OnboardingStatus;
  /** A draft exists (analysed, or built from one). */
  analysisComplete: boolean;
  /** Some question is still unanswered. */
  hasQuestions: boolean;
}

export class OnboardingView extends AnalysisStatusView {
  initialPrompt: string;
  /** Why the last analysis gave no draft; null otherwise. */
  analysisError: string | null;
  /** Whether a user has linked it (from then on, only they may read it). */
  linked: boolean;
  organizationId: string | null;
  /** What the build created; null until built. */
  setupResult: Record<string, unknown> | null;
  welcomeMessage: string | null;
  /** Built and not yet completed: the user's first login into the new organization. */
  isFirstLogin: boolean;
  created: Date;
}

export class QuestionView {
  questionId: string;
  /** The showcase item it is about, if any. */
  itemId: string | null;
  fieldPath: string | null;
  text: string;
  @ApiProperty({ enum: QUESTION_KINDS })
  kind: QuestionKind;
  /** The choices of a `choice` question. */
  options: string[] | null;
  /** The build waits for an answer (a `setup` uses defaults instead). */
  required: boolean;
  answer: string | null;
}

export class ShowcaseItemView {
  itemId: string;
  @ApiProperty({ enum: SHOWCASE_TYPES })
  type: ShowcaseType;
  label: string;
  /** The item's fields, OCF names (see the `OnboardingDraft` schema). */
  fields: Record<string, unknown>;
  @ApiProperty({ enum: ITEM_SOURCES })
  source: ItemSource;
  /** The model's confidence, 0–1. */
  confidence: number;
  /** What the checks found wrong with it (the build refuses while any remains). */
  issues: string[];
}

export class ShowcaseView {
  items: ShowcaseItemView[];
  /** Counts per list and the share totals (decimal strings). */
  totals: Record<string, unknown>;
}

export class BuildView {
  organizationId: string;
  setupResult: Record<string, unknown>;
}

export class FirstLoginView {
  isFirstLogin: boolean;
  onboardingId: string | null;
  setupResult: Record<string, unknown> | null;
  welcomeMessage: string | null;
}
