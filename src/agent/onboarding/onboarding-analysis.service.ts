import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiDocument, Clock, DomainError } from '../../common';
import { TokenBudgets } from '../limits/token-budgets';
import { LlmClient } from '../llm';
import { draftInputSchema, DraftInputSchema, validateDraft } from './draft';
import { checkStored } from './onboarding-check';
import { analysisMessage, ANALYST_PROMPT, AnalysisFile, DRAFT_TOOL } from './onboarding-prompt';
import { checkQuestions, mergeQuestions, modelQuestions } from './onboarding-questions';
import { applyCorrection, labelOf } from './onboarding-showcase';
import type { AgentOnboarding } from './store/onboarding.entity';
import { AnalysisOutcome, Onboardings } from './store/onboardings';
import { storeDraft } from './store/stored-draft';

const DRAFT_TOOL_DESCRIPTION =
  'Records the draft cap table of the company: the organization and one list per kind of ' +
  'record, OCF field names, each item with your own `id` (references use it) and your ' +
  '`confidence` (0–1); questions for what is missing or unclear.';

/**
 * One analysis: the model is made to call `record_onboarding_draft` (tool_choice) with the
 * prompt, the draft so far, the founder's answers and corrections and any files; its draft is
 * validated, keeps the item ids of the one before, has the corrections applied again (the
 * founder's word stands over the model's), and is checked as the build would write it: what the
 * checks refuse becomes a question. Only the latest analysis stores its result.
 */
@Injectable()
export class OnboardingAnalysis {
  constructor(
    private readonly llm: LlmClient,
    private readonly document: ApiDocument,
    private readonly store: Onboardings,
    private readonly budgets: TokenBudgets,
    private readonly clock: Clock,
  ) {}

  private schema?: Promise<DraftInputSchema>;

  /**
   * The tool's input schema: derived from the draft's validation (what the model records is
   * exactly what validateDraft accepts), described as the API document describes the draft.
   */
  private inputSchema(): Promise<DraftInputSchema> {
    return (this.schema ??= this.document.get().then((doc) => {
      const schemas = (doc.components?.schemas ?? {}) as Record<
        string,
        { properties?: Record<string, { description?: string }> }
      >;
      return draftInputSchema((cls, property) => schemas[cls]?.properties?.[property]?.description);
    }));
  }

  /**
   * Runs one analysis; the row afterwards. 409 once the organization is built. When the model
   * cannot be reached (503) the row is `failed`, or back to `pending` when `retrying` (the
   * queue tries again); a spent token budget (429 `agentBudgetExhausted`) makes it `failed`, as
   * no retry within the day would pass. The model's tokens are the linked user's, or, before
   * anyone linked it, those all unlinked onboardings share (TokenBudgets).
   */
  async run(id: string, files: AnalysisFile[] = [], retrying = false): Promise<AgentOnboarding> {
    const run = randomUUID();
    const row = await this.store.claimAnalysis(id, run);
    if (!row) {
      if (!(await this.store.find(id))) throw DomainError.notFound('no such onboarding');
      throw DomainError.conflict('the organization is built: there is nothing more to analyse');
    }
    let outcome: AnalysisOutcome;
    try {
      outcome = await this.analyse(row, files);
    } catch (err) {
      await this.store.finishAnalysis(id, run, {
        status: retrying && !isBudgetExhausted(err) ? 'pending' : 'failed',
        analysisError: err instanceof DomainError ? err.message : 'the analysis failed',
        draft: row.draft,
        questions: row.questions,
      });
      throw err;
    }
    await this.store.finishAnalysis(id, run, outcome);
    return (await this.store.find(id))!;
  }

  private async analyse(row: AgentOnboarding, files: AnalysisFile[]): Promise<AnalysisOutcome> {
    const schema = await this.inputSchema();
    const budget = row.linkedUserId
      ? this.budgets.user(row.linkedUserId)
      : this.budgets.anonymousOnboarding();
    const message = await this.budgets.metered(budget, () =>
      this.llm.createMessage({
        system: ANALYST_PROMPT,
        messages: [analysisMessage(row, files)],
        tools: [{ name: DRAFT_TOOL, description: DRAFT_TOOL_DESCRIPTION, input_schema: schema }],
        tool_choice: { type: 'tool', name: DRAFT_TOOL },
      }),
    );
    const failed = (analysisError: string): AnalysisOutcome => ({
      status: 'failed',
      analysisError,
      draft: row.draft,
      questions: row.questions,
    });
    const use = message.content.find((b) => b.type === 'tool_use' && b.name === DRAFT_TOOL);
    if (!use || use.type !== 'tool_use') return failed('the model recorded no draft');
    const valid = validateDraft(use.input);
    if ('errors' in valid) {
      return failed(`the model’s draft is not valid: ${valid.errors.slice(0, 5).join('; ')}`);
    }
    let stored = storeDraft(
      valid.draft as unknown as Record<string, unknown>,
      row.draft,
      files.length ? 'document' : 'prompt',
    );
    for (const c of row.corrections) stored = applyCorrection(stored, c).draft;
    const { problems } = checkStored(stored, this.clock.today());
    const fresh = [
      ...modelQuestions(stored, valid.draft.questions),
      ...checkQuestions(problems, (itemId) => labelOf(stored, itemId)),
    ];
    return {
      status: 'analyzed',
      analysisError: null,
      draft: stored,
      questions: mergeQuestions(row.questions, fresh),
    };
  }
}

/** The day's tokens are spent: trying again before midnight UTC cannot pass. */
export const isBudgetExhausted = (err: unknown) =>
  err instanceof DomainError && err.key === 'agentBudgetExhausted';
