import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, Subject } from 'rxjs';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import type { IdempotencyStore } from './idempotency-store';

/** The claim of a running request is renewed while it runs, and no longer once it has answered. */
describe('IdempotencyInterceptor: the lease of a running request', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const context = () =>
    ({
      switchToHttp: () => ({
        getRequest: () => ({
          get: () => 'key-1',
          is: () => false,
          session: { userId: 'u1' },
          method: 'POST',
          originalUrl: '/v1/x',
          body: {},
        }),
        getResponse: () => ({ statusCode: 201 }),
      }),
    }) as unknown as ExecutionContext;

  it('renews the claim three times a minute until the answer is kept', async () => {
    const store = {
      leaseMs: 60_000,
      claim: jest.fn().mockResolvedValue('claimed'),
      renew: jest.fn().mockResolvedValue(undefined),
      complete: jest.fn().mockResolvedValue(undefined),
      release: jest.fn().mockResolvedValue(undefined),
    };
    const answer = new Subject<unknown>();
    const next: CallHandler = { handle: () => answer };
    const interceptor = new IdempotencyInterceptor(store as unknown as IdempotencyStore);
    const done = lastValueFrom(interceptor.intercept(context(), next));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(store.renew).toHaveBeenCalledTimes(3);
    const claim = store.claim.mock.calls[0][0];
    expect(claim).toMatchObject({ userId: 'u1', key: 'key-1', claimId: expect.any(String) });
    expect(store.renew).toHaveBeenCalledWith(claim);
    answer.next({ id: 'x' });
    answer.complete();
    await expect(done).resolves.toEqual({ id: 'x' });
    expect(store.complete).toHaveBeenCalledWith(claim, 201, '{"id":"x"}');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(store.renew).toHaveBeenCalledTimes(3);
  });
});
