import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { DEFAULT_REFERRAL_REWARDS, readReferralRewards, ReferralReward } from './referral-rewards';
import { configSlice, keepParsed, readParsed } from './slice';
import { blankTo, integer } from './variable-rules';

const REWARDS = Symbol('the parsed REFERRAL_REWARDS');

/** The referral program: how long credit lasts, and what a reward card may hold. */
export class ReferralConfig {
  /**
   * Credit not spent within this many days of arriving expires (oldest first), checked daily;
   * 0: credit never expires.
   */
  @Transform(blankTo(0, Number))
  @IsInt(integer(0, 3650))
  @Min(0, integer(0, 3650))
  @Max(3650, integer(0, 3650))
  REFERRAL_CREDIT_EXPIRY_DAYS = 0;

  /** Reward card values and weights, JSON (see the README); read through `referralRewards`. */
  @Transform(blankTo(DEFAULT_REFERRAL_REWARDS))
  @IsString()
  REFERRAL_REWARDS = DEFAULT_REFERRAL_REWARDS;

  /** The parsed REFERRAL_REWARDS (validateEnv reads them). */
  get referralRewards(): readonly ReferralReward[] {
    return readParsed<readonly ReferralReward[]>(this, REWARDS) ?? [];
  }
}

export const referralSlice = configSlice({
  name: 'referral',
  schema: ReferralConfig,
  check: (env) => {
    if (typeof env.REFERRAL_REWARDS !== 'string') return [];
    const read = readReferralRewards(env.REFERRAL_REWARDS);
    keepParsed(env, REWARDS, read.rewards);
    return read.problems;
  },
});
