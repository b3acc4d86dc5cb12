// Referral (issue 25): nothing of it is used by other modules; the composition root imports it.
export { ReferralModule } from './referral.module';
