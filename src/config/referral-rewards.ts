/**
 * REFERRAL_REWARDS: the values a reward card may hold and how likely each is. A JSON array of
 * `{value, weight}`: `value` a positive decimal string with at most two decimals (money in
 * BILLING_CURRENCY), `weight` a positive integer (a value's chance is its weight over the sum).
 */
export interface ReferralReward {
  value: string;
  weight: number;
}

export const DEFAULT_REFERRAL_REWARDS = '[{"value": "25.00", "weight": 1}]';

const MONEY = /^(0|[1-9]\d{0,11})(\.\d{1,2})?$/;
const MAX_REWARDS = 100;

/** The parsed rewards, or what is wrong with them (each problem naming the variable). */
export function readReferralRewards(text: string): {
  rewards: ReferralReward[];
  problems: string[];
} {
  const fail = (why: string) => ({ rewards: [], problems: [`  REFERRAL_REWARDS: ${why}`] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('must be a JSON array such as [{"value": "25.00", "weight": 1}]');
  }
  if (!Array.isArray(parsed) || !parsed.length || parsed.length > MAX_REWARDS) {
    return fail(`must be a JSON array of 1 to ${MAX_REWARDS} {value, weight} objects`);
  }
  const rewards: ReferralReward[] = [];
  for (const [i, item] of parsed.entries()) {
    const entry = item as Record<string, unknown> | null;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return fail(`item ${i} must be an object {value, weight}`);
    }
    const unknownKeys = Object.keys(entry).filter((k) => k !== 'value' && k !== 'weight');
    if (unknownKeys.length) return fail(`item ${i} has unknown keys: ${unknownKeys.join(', ')}`);
    const { value, weight } = entry;
    if (typeof value !== 'string' || !MONEY.test(value) || !/[1-9]/.test(value)) {
      return fail(`item ${i}: value must be a positive decimal string with at most two decimals`);
    }
    if (typeof weight !== 'number' || !Number.isSafeInteger(weight) || weight < 1) {
      return fail(`item ${i}: weight must be a positive integer`);
    }
    rewards.push({ value, weight });
  }
  if (rewards.reduce((sum, r) => sum + r.weight, 0) > Number.MAX_SAFE_INTEGER) {
    return fail('the weights add up to more than 2^53 - 1');
  }
  return { rewards, problems: [] };
}
