import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, DomainError } from '../../common';
import { UsersDirectory } from '../../auth';
import { ONBOARDING_ANALYSIS, QueueName } from '../../events';
import { AgentLimits } from '../limits/agent-limits';
import { OnboardingAnalysis } from './onboarding-analysis.service';
import { OnboardingBuilder } from './onboarding-build.service';
import { checkStored } from './onboarding-check';
import type { AnalysisFile } from './onboarding-prompt';
import { answerError, checkQuestions, mergeQuestions } from './onboarding-questions';
import { applyCorrection, labelOf, showcase } from './onboarding-showcase';
import type {
  AnalysisStatusView,
  BuildView,
  FirstLoginView,
  OnboardingView,
  QuestionView,
  ShowcaseView,
} from './onboarding.view';
import type { ClarifyDto, CorrectDto, CreateOnboardingDto } from './onboarding.dto';
import type { AgentOnboarding, StoredCorrection, StoredQuestion } from './store/onboarding.entity';
import { Onboardings } from './store/onboardings';
import type { StoredDraft } from './store/stored-draft';

/** Corrections one onboarding keeps (each a field; a later one of the same field replaces it). */
const MAX_CORRECTIONS = 500;

/** An analysis gave the draft the row holds. */
const COMPLETE = new Set(['analyzed', 'building', 'built', 'completed']);

/** The draft can still change (not yet built). */
const EDITABLE = new Set(['analyzed', 'failed', 'pending', 'analyzing']);

/**
 * AI-assisted onboarding. Created without a session at sign-up (limited per client address and
 * for all clients together; its analyses per onboarding and by token budgets), it
 * is readable by anyone holding its id until a user links it; from then on it is that user's
 * alone (404 to anyone else). Linking, and every authenticated route on an unlinked onboarding
 * (which links it), needs a session whose e-mail is the one given at creation (403 otherwise).
 */
@Injectable()
export class OnboardingService {
  constructor(
    private readonly store: Onboardings,
    private readonly analysis: OnboardingAnalysis,
    private readonly builder: OnboardingBuilder,
    private readonly limits: AgentLimits,
    private readonly users: UsersDirectory,
    @InjectQueue(QueueName.AgentOnboarding) private readonly queue: Queue,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async create(clientIp: string, dto: CreateOnboardingDto): Promise<OnboardingView> {
    await this.limits.consumeOnboardingCreate(clientIp);
    const row = await this.store.add(dto.email, dto.initialPrompt);
    await this.queue.add(
      ONBOARDING_ANALYSIS.name,
      { onboardingId: row.id },
      { ...ONBOARDING_ANALYSIS.options, jobId: ONBOARDING_ANALYSIS.jobId(row.id) },
    );
    return view(row);
  }

  async get(id: string, sessionUserId: string | null): Promise<OnboardingView> {
    return view(await this.readable(id, sessionUserId));
  }

  async status(id: string, sessionUserId: string | null): Promise<AnalysisStatusView> {
    return statusView(await this.readable(id, sessionUserId));
  }

  async questions(id: string, sessionUserId: string | null): Promise<QuestionView[]> {
    return (await this.readable(id, sessionUserId)).questions.map(questionView);
  }

  async showcase(id: string, sessionUserId: string | null): Promise<ShowcaseView> {
    return showcase((await this.readable(id, sessionUserId)).draft, this.clock.today());
  }

  /** Links it: the session's e-mail must be the one it was started with (403), and it must not be another account's (409). */
  async link(userId: string, id: string): Promise<OnboardingView> {
    const user = await this.sessionUser(userId);
    const row = await this.store.find(id);
    if (!row) throw DomainError.notFound('no such onboarding');
    if (row.linkedUserId !== user.id && row.email !== user.email) {
      throw DomainError.forbidden('this onboarding was started with another e-mail address');
    }
    return view(await this.claim(userId, id));
  }

  async analyze(userId: string, id: string, files: AnalysisFile[]): Promise<OnboardingView> {
    await this.claim(userId, id);
    await this.limits.consumeOnboardingAnalysis(id);
    return view(await this.analysis.run(id, files));
  }

  async clarify(userId: string, dto: ClarifyDto): Promise<QuestionView> {
    return this.change(userId, dto.onboardingId, (row) => {
      const q = row.questions.find((x) => x.questionId === dto.questionId);
      if (!q) throw DomainError.notFound('no such question');
      const wrong = answerError(q, dto.answer);
      if (wrong) throw DomainError.badRequest(wrong, { body: { field: 'answer' } });
      q.answer = dto.answer;
      // A typed answer about a field is that field's value (a text one waits for an analysis).
      if (q.kind !== 'text' && q.itemId && q.fieldPath && row.draft) {
        const correction = { itemId: q.itemId, fieldPath: q.fieldPath, newValue: dto.answer };
        const corrected = tryCorrection(row.draft, correction);
        if (corrected) {
          row.draft = corrected;
          row.corrections = withCorrection(row.corrections, correction);
        }
      }
      return questionView(q);
    });
  }

  async correct(userId: string, dto: CorrectDto): Promise<ShowcaseView> {
    return this.change(userId, dto.onboardingId, (row) => {
      if (!row.draft) throw DomainError.notFound('no such item in the draft (no draft yet)');
      const correction = { itemId: dto.itemId, fieldPath: dto.fieldPath, newValue: dto.newValue };
      row.draft = applyCorrection(row.draft, correction).draft;
      row.corrections = withCorrection(row.corrections, correction);
      return showcase(row.draft, this.clock.today());
    });
  }

  async build(userId: string, id: string): Promise<BuildView> {
    const user = await this.sessionUser(userId);
    return this.builder.build(userId, id, (row) => this.assertMine(row, user), false);
  }

  /** Analyses first when there is no draft yet (or the last analysis failed), then builds with defaults. */
  async setup(userId: string, id: string): Promise<BuildView> {
    const row = await this.claim(userId, id);
    if (!row.organizationId && (!row.draft || row.status !== 'analyzed')) {
      await this.limits.consumeOnboardingAnalysis(id);
      await this.analysis.run(id);
    }
    const user = await this.sessionUser(userId);
    return this.builder.build(userId, id, (r) => this.assertMine(r, user), true);
  }

  async complete(userId: string, id: string): Promise<OnboardingView> {
    const user = await this.sessionUser(userId);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.store.lock(manager, id);
      this.assertMine(row, user);
      if (row.status !== 'built' && row.status !== 'completed') {
        throw DomainError.conflict('the organization is not built yet');
      }
      row.status = 'completed';
      return view(await this.store.save(manager, row));
    });
  }

  async firstLogin(userId: string): Promise<FirstLoginView> {
    const row = await this.store.latestOf(userId);
    return {
      isFirstLogin: row?.status === 'built',
      onboardingId: row?.id ?? null,
      setupResult: row?.setupResult ?? null,
      welcomeMessage: row?.welcomeMessage ?? null,
    };
  }

  /** A public read: anyone's while unlinked, then the linked user's only (404 for others). */
  private async readable(id: string, sessionUserId: string | null): Promise<AgentOnboarding> {
    const row = await this.store.find(id);
    if (!row || (row.linkedUserId && row.linkedUserId !== sessionUserId)) {
      throw DomainError.notFound('no such onboarding');
    }
    return row;
  }

  /** The onboarding, linked to the user if it was not yet (their e-mail must be its). */
  private async claim(userId: string, id: string): Promise<AgentOnboarding> {
    const user = await this.sessionUser(userId);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.store.lock(manager, id);
      this.assertMine(row, user);
      if (!row.linkedUserId) {
        row.linkedUserId = user.id;
        return this.store.save(manager, row);
      }
      return row;
    });
  }

  private assertMine(row: AgentOnboarding, user: { id: string; email: string }) {
    if (row.linkedUserId === user.id) return;
    if (row.linkedUserId) {
      // Linked to another account (e.g. theirs before an e-mail change): theirs alone.
      throw row.email === user.email
        ? DomainError.conflict('this onboarding is linked to another account')
        : DomainError.notFound('no such onboarding');
    }
    if (row.email !== user.email) {
      throw DomainError.forbidden('this onboarding was started with another e-mail address');
    }
  }

  /** A change of the draft or its answers by the linked user, the checks' questions renewed. */
  private async change<T>(userId: string, id: string, work: (row: AgentOnboarding) => T) {
    const user = await this.sessionUser(userId);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.store.lock(manager, id);
      this.assertMine(row, user);
      if (!EDITABLE.has(row.status)) {
        throw DomainError.conflict('the organization is built: the draft no longer changes');
      }
      row.linkedUserId ??= user.id;
      const result = work(row);
      if (row.draft) row.questions = recheck(row.questions, row.draft, this.clock.today());
      await this.store.save(manager, row);
      return result;
    });
  }

  private async sessionUser(userId: string) {
    const user = await this.users.findById(userId);
    if (!user) throw DomainError.unauthorized('the account no longer exists');
    return user;
  }
}

/** Open check questions follow the draft: the ones whose problem is gone go, new ones come. */
function recheck(questions: StoredQuestion[], draft: StoredDraft, today: string): StoredQuestion[] {
  const { problems } = checkStored(draft, today);
  const kept = questions.filter((q) => q.origin !== 'check' || q.answer !== null);
  const fresh = checkQuestions(problems, (itemId) => labelOf(draft, itemId));
  return mergeQuestions(kept, fresh);
}

/** The draft with the answer applied as the field's value, or null when it does not fit. */
function tryCorrection(draft: StoredDraft, c: StoredCorrection): StoredDraft | null {
  try {
    return applyCorrection(draft, c, 'answer').draft;
  } catch {
    return null;
  }
}

/** The corrections with `c` replacing an earlier one of the same field (at most one per field). */
function withCorrection(all: StoredCorrection[], c: StoredCorrection): StoredCorrection[] {
  return [...all.filter((x) => x.itemId !== c.itemId || x.fieldPath !== c.fieldPath), c].slice(
    -MAX_CORRECTIONS,
  );
}

function statusView(row: AgentOnboarding): AnalysisStatusView {
  return {
    id: row.id,
    status: row.status,
    analysisComplete: COMPLETE.has(row.status),
    hasQuestions: row.questions.some((q) => q.answer === null),
  };
}

function view(row: AgentOnboarding): OnboardingView {
  return {
    ...statusView(row),
    initialPrompt: row.initialPrompt,
    analysisError: row.analysisError,
    linked: row.linkedUserId !== null,
    organizationId: row.organizationId,
    setupResult: row.setupResult,
    welcomeMessage: row.welcomeMessage,
    isFirstLogin: row.status === 'built',
    created: row.created,
  };
}

function questionView(q: StoredQuestion): QuestionView {
  return {
    questionId: q.questionId,
    itemId: q.itemId,
    fieldPath: q.fieldPath,
    text: q.text,
    kind: q.kind,
    options: q.options,
    required: q.required,
    answer: q.answer,
  };
}
