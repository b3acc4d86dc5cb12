import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../../../database';
import { QUESTION_KINDS } from '../draft';
import type { StoredDraft } from './stored-draft';

/**
 * `pending`: created, its first analysis queued; `analyzing`: a model call under way;
 * `analyzed`: a draft (and maybe questions) to review; `failed`: the last analysis gave none;
 * `building`: reserved for a build under way (builds run in one transaction, so it is never seen
 * committed); `built`: the organization exists; `completed`: the user finished the first login.
 */
export const ONBOARDING_STATUSES = [
  'pending',
  'analyzing',
  'analyzed',
  'building',
  'built',
  'completed',
  'failed',
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];

export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** A clarifying question: the model's own, or a failed check of the draft's figures. */
export interface StoredQuestion {
  questionId: string;
  itemId: string | null;
  fieldPath: string | null;
  text: string;
  kind: QuestionKind;
  options: string[] | null;
  required: boolean;
  answer: string | null;
  origin: 'model' | 'check';
}

/** A field the user corrected, kept so a later analysis is told about it. */
export interface StoredCorrection {
  itemId: string;
  fieldPath: string;
  newValue: string;
}

/** An AI-assisted onboarding: a founder's description analysed into a draft organization. */
@Entity('agent_onboarding')
@Index('agent_onboarding_user_idx', ['linkedUserId', 'created'])
@Index('agent_onboarding_created_idx', ['created'])
export class AgentOnboarding {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The address given at sign-up (lower case); linking needs a session with the same. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'text' })
  initialPrompt: string;

  @Column({ type: 'varchar', length: 12 })
  status: OnboardingStatus;

  /** The analysis that may store its result: a newer one makes an older one's answer stale. */
  @Column({ type: 'uuid', nullable: true })
  analysisRun: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  analysisError: string | null;

  @Column({ type: 'uuid', nullable: true })
  linkedUserId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  draft: StoredDraft | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  questions: StoredQuestion[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  corrections: StoredCorrection[];

  @Column({ type: 'uuid', nullable: true })
  organizationId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  setupResult: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  welcomeMessage: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated: Date;

  @ForeignKey('User', 'linked_user_id')
  private readonly linkedUser?: unknown;

  @ForeignKey('Organization', 'organization_id')
  private readonly organization?: unknown;
}
