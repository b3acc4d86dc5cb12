import { randomInt } from 'node:crypto';
import type { ReferralReward } from '../../config';

/** A reward value drawn by weight (`randomInt` below the weights' sum picks its bucket). */
export function drawReward(
  rewards: readonly ReferralReward[],
  pick: (below: number) => number = randomInt,
): string {
  const total = rewards.reduce((sum, r) => sum + r.weight, 0);
  let at = pick(total);
  for (const reward of rewards) {
    if (at < reward.weight) return reward.value;
    at -= reward.weight;
  }
  throw new RangeError('no rewards to draw from');
}
