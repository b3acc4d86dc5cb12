import { Injectable } from '@nestjs/common';
import { DAY, Retention } from '../../scheduler';

/** How long an onboarding nobody linked keeps its e-mail address and description. */
export const UNLINKED_RETENTION_DAYS = 7;

/**
 * Once a day across instances, the onboardings no user linked within 7 days go: they hold an
 * address and a company's description given without an account, kept no longer than a sign-up
 * takes.
 */
@Retention({
  owner: 'agent',
  name: 'agent:onboarding-cleanup',
  table: 'agent_onboarding',
  age: 'created',
  olderThan: UNLINKED_RETENTION_DAYS * DAY,
  where: 'linked_user_id IS NULL',
})
@Injectable()
export class OnboardingRetention {}
