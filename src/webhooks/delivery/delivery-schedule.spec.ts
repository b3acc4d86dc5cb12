import { nextAttemptAt, succeeded } from './delivery-schedule';

describe('delivery schedule', () => {
  it('retries after 1 min, 5 min, 30 min, 2 h and 24 h, each from the failure, then stops', () => {
    const failed = new Date('2026-11-27T10:00:00.000Z');
    const delays = [1, 2, 3, 4, 5].map(
      (attempt) => (nextAttemptAt(attempt, failed)!.getTime() - failed.getTime()) / 60_000,
    );
    expect(delays).toEqual([1, 5, 30, 120, 1440]);
    expect(nextAttemptAt(6, failed)).toBeNull();
  });

  it('counts only 2xx as success', () => {
    expect([200, 201, 204, 299].every(succeeded)).toBe(true);
    expect([0, 199, 301, 302, 304, 400, 410, 500].some(succeeded)).toBe(false);
  });
});
