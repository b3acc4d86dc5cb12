import type { Agent } from 'supertest';
import type { FakeLlm } from '../fakes/llm';
import type { TestApp } from './app';
import { eventually } from './eventually';
import { randomIp } from './users';

/** A draft as the model records it: two founders, an investor, a plan with a grant, a SAFE. */
export function fullDraft(founderEmail: string) {
  return {
    organization: {
      name: 'Rocket Labs',
      legal_name: 'Rocket Labs, Inc.',
      country_of_formation: 'US',
      currency: 'USD',
      entity_type: 'corporation',
      confidence: 0.95,
    },
    people: [
      {
        id: 'ada',
        name: 'Ada Founder',
        email: founderEmail,
        stakeholder_type: 'INDIVIDUAL',
        confidence: 0.9,
      },
      {
        id: 'bob',
        name: 'Bob Cofounder',
        email: 'bob@rocket.test',
        stakeholder_type: 'INDIVIDUAL',
        confidence: 0.9,
      },
      { id: 'vc', name: 'Seed Fund LP', stakeholder_type: 'INSTITUTION', confidence: 0.8 },
      {
        id: 'eve',
        name: 'Eve Engineer',
        email: 'eve@rocket.test',
        stakeholder_type: 'INDIVIDUAL',
        confidence: 0.7,
      },
    ],
    shareClasses: [
      {
        id: 'common',
        name: 'Common',
        class_type: 'COMMON',
        initial_shares_authorized: '10000000',
        par_value: '0.0001',
        confidence: 0.9,
      },
      {
        id: 'seed',
        name: 'Seed Preferred',
        class_type: 'PREFERRED',
        initial_shares_authorized: '2000000',
        price_per_share: '1.25',
        confidence: 0.8,
      },
    ],
    shareholdings: [
      {
        id: 'sh-ada',
        stakeholder_id: 'ada',
        stock_class_id: 'common',
        quantity: '4000000',
        share_price: '0.0001',
        date: '2024-01-15',
        confidence: 0.9,
      },
      {
        id: 'sh-bob',
        stakeholder_id: 'bob',
        stock_class_id: 'common',
        quantity: '3000000',
        share_price: '0.0001',
        date: '2024-01-15',
        confidence: 0.9,
      },
      {
        id: 'sh-vc',
        stakeholder_id: 'vc',
        stock_class_id: 'seed',
        quantity: '800000',
        share_price: '1.25',
        date: '2024-06-01',
        confidence: 0.8,
      },
    ],
    optionPlans: [
      {
        id: 'plan',
        plan_name: '2024 Equity Incentive Plan',
        stock_class_id: 'common',
        initial_shares_reserved: '1500000',
        board_approval_date: '2024-02-01',
        confidence: 0.85,
      },
    ],
    optionPools: [],
    optionGrants: [
      {
        id: 'g-eve',
        stakeholder_id: 'eve',
        stock_plan_id: 'plan',
        quantity: '100000',
        exercise_price: '0.10',
        date: '2024-03-01',
        vesting_terms_id: 'std',
        confidence: 0.7,
      },
    ],
    convertibles: [
      {
        id: 'safe',
        stakeholder_id: 'vc',
        convertible_type: 'SAFE',
        investment_amount: '250000',
        date: '2023-10-01',
        valuation_cap: '8000000',
        confidence: 0.75,
      },
    ],
    vestingSchedules: [
      {
        id: 'std',
        name: '4 years, 1-year cliff',
        period_length: 1,
        period_type: 'MONTHS',
        occurrences: 48,
        cliff_installment: 12,
        confidence: 0.8,
      },
    ],
    questions: [
      {
        text: 'What is the par value of the Seed Preferred shares?',
        kind: 'number',
        required: true,
        item_id: 'seed',
        field_path: 'par_value',
      },
    ],
  };
}

export const DRAFT_TOOL = 'record_onboarding_draft';

/** Starts an onboarding whose first analysis the fake answers with `draft`; waits for it. */
export async function analysedOnboarding(
  t: TestApp,
  fake: FakeLlm,
  email: string,
  draft: unknown,
  prompt = 'We are Rocket Labs. Ada has 4M common, Bob 3M.',
) {
  fake.toolUse([{ name: DRAFT_TOOL, input: draft }]);
  const created = await t.http
    .post('/v1/agent/onboarding/create')
    .set('X-Forwarded-For', randomIp())
    .send({ email, initialPrompt: prompt })
    .expect(201);
  const id = created.body.id as string;
  const status = await eventually(async () => {
    const res = await t.http.get(`/v1/agent/onboarding/analysis-status/${id}`).expect(200);
    if (res.body.status !== 'analyzed' && res.body.status !== 'failed')
      throw new Error(res.body.status);
    return res.body as { status: string; analysisComplete: boolean; hasQuestions: boolean };
  });
  return { id, created: created.body, status };
}

export interface ShowcaseItem {
  itemId: string;
  type: string;
  label: string;
  fields: Record<string, unknown>;
  source: string;
  confidence: number;
  issues: string[];
}

export async function showcaseOf(agent: Agent | TestApp['http'], id: string) {
  const res = await agent.get(`/v1/agent/onboarding/showcase/${id}`).expect(200);
  return res.body as { items: ShowcaseItem[]; totals: Record<string, unknown> };
}
