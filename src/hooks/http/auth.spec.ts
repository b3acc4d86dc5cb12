import type { IncomingMessage } from 'node:http';
import { presentedToken, safeHeaders, safeUrl, tokenMatches } from './auth';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const url = (query = '') => new URL(`http://hooks.invalid/hooks/wake${query}`);

describe('hook auth', () => {
  it('takes the bearer token first, then x-service-token, then the query', () => {
    const both = req({ authorization: 'Bearer aaa', 'x-service-token': 'bbb' });
    expect(presentedToken(both, url('?token=ccc'))).toEqual({ token: 'aaa', fromQuery: false });
    expect(presentedToken(req({ 'x-service-token': 'bbb' }), url('?token=ccc'))).toEqual({
      token: 'bbb',
      fromQuery: false,
    });
    expect(presentedToken(req({ authorization: 'Basic aaa' }), url('?token=ccc'))).toEqual({
      token: 'ccc',
      fromQuery: true,
    });
    // Twice in the query: no token, still the deprecated form.
    expect(presentedToken(req({}), url('?token=a&token=a'))).toEqual({ fromQuery: true });
    expect(presentedToken(req({}), url())).toEqual({ fromQuery: false });
  });

  it('never matches an empty token', () => {
    expect(tokenMatches('x'.repeat(32), 'x'.repeat(32))).toBe(true);
    expect(tokenMatches('', '')).toBe(false);
    expect(tokenMatches('', undefined)).toBe(false);
    expect(tokenMatches(undefined, 'x')).toBe(false);
  });

  it('keeps the credentials out of what templates, transforms and logs see', () => {
    expect(
      safeHeaders(req({ authorization: 'a', 'x-service-token': 'b', cookie: 'c', 'x-other': 'd' })),
    ).toEqual({ 'x-other': 'd' });
    expect(safeUrl(url('?a=1&token=secret&b=2')).href).toBe(
      'http://hooks.invalid/hooks/wake?a=1&b=2',
    );
  });
});
