import { randomUUID } from 'node:crypto';
import type { ItemProblem } from './onboarding-check';
import type { StoredQuestion } from './store/onboarding.entity';
import { itemByModelId, type StoredDraft } from './store/stored-draft';
import type { DraftQuestion } from './draft';

/** Questions one onboarding may hold (answered ones included). */
export const MAX_QUESTIONS = 100;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The questions the checks raise: one per problem, about its item and field. */
export function checkQuestions(problems: ItemProblem[], labelOf: (itemId: string) => string) {
  return problems.map((p): StoredQuestion => ({
    questionId: randomUUID(),
    itemId: p.item.itemId,
    fieldPath: p.fieldPath,
    text: `${labelOf(p.item.itemId)}: ${p.reason}. What is right?`,
    kind: 'text',
    options: null,
    required: true,
    answer: null,
    origin: 'check',
  }));
}

/** The model's questions, naming our items (an `item_id` the draft lacks is dropped). */
export function modelQuestions(stored: StoredDraft, asked: DraftQuestion[] = []) {
  return asked.map((q): StoredQuestion => {
    const item = q.item_id
      ? q.item_id === 'organization'
        ? stored.organization
        : itemByModelId(stored, q.item_id)
      : undefined;
    return {
      questionId: randomUUID(),
      itemId: item?.itemId ?? null,
      fieldPath: item ? (q.field_path ?? null) : null,
      text: q.text,
      kind: q.kind,
      options: q.kind === 'choice' ? (q.options ?? []) : null,
      required: q.required,
      answer: null,
      origin: 'model',
    };
  });
}

/**
 * The questions after an analysis or a change: the answered ones stay (the founder's words), the
 * open ones give way to `fresh`; an open check question whose problem is gone goes with them.
 */
export function mergeQuestions(previous: StoredQuestion[], fresh: StoredQuestion[]) {
  return [...previous.filter((q) => q.answer !== null), ...fresh].slice(-MAX_QUESTIONS);
}

/** Why the answer does not fit the question's kind, or null. */
export function answerError(q: StoredQuestion, answer: string): string | null {
  switch (q.kind) {
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(answer) ? null : 'the answer must be a number';
    case 'date':
      return DATE.test(answer) && !Number.isNaN(Date.parse(answer))
        ? null
        : 'the answer must be a date YYYY-MM-DD';
    case 'boolean':
      return answer === 'true' || answer === 'false' ? null : 'the answer must be true or false';
    case 'choice':
      return (q.options ?? []).includes(answer)
        ? null
        : `the answer must be one of: ${(q.options ?? []).join(', ')}`;
    default:
      return null;
  }
}
