import { redactHeaders, redactText, redactUrl, secretNames } from './redact';
import { retryAfterMs } from './retry-after';

describe('redaction', () => {
  it('redacts user info, credential-like query parameters and the fragment of a URL', () => {
    expect(
      redactUrl('https://u:p@api.example/v1/x?api_key=k&page=2&sig=s&access_token=t&q=a%20b#frag'),
    ).toBe(
      'https://[redacted]@api.example/v1/x?api_key=[redacted]&page=2&sig=[redacted]&access_token=[redacted]&q=a%20b',
    );
    expect(redactUrl('https://hooks.example/services/T0/B0/abc', undefined, true)).toBe(
      'https://hooks.example/[redacted]',
    );
    expect(redactUrl('not a url')).toBe('(an unreadable URL)');
  });

  it('redacts secret headers', () => {
    const headers = new Headers({
      Authorization: 'Bearer x',
      'Proxy-Authorization': 'Basic y',
      Cookie: 'a=b',
      'X-Api-Key': 'k',
      'X-Ledgerline-Signature': 'sha256=z',
      'Content-Type': 'application/json',
    });
    expect(redactHeaders(headers)).toBe(
      'authorization: [redacted]; content-type: application/json; cookie: [redacted]; ' +
        'proxy-authorization: [redacted]; x-api-key: [redacted]; x-ledgerline-signature: [redacted]',
    );
  });

  it('redacts secret fields of JSON (whole or cut), forms and header lines', () => {
    const names = secretNames(['chargify_token']);
    expect(
      redactText(
        '{"access_token":"a\\"b","expires_in":3600,"user":{"password":"p"},"chargify_token":"t","id_token":null}',
        names,
      ),
    ).toBe(
      '{"access_token":"[redacted]","expires_in":3600,"user":{"password":"[redacted]"},"chargify_token":"[redacted]","id_token":[redacted]}',
    );
    expect(redactText('{"refresh_token": "cut-in-the-mid', names)).toBe(
      '{"refresh_token": "[redacted]"',
    );
    expect(redactText('code=abc&client_secret=def&grant_type=authorization_code', names)).toBe(
      'code=[redacted]&client_secret=[redacted]&grant_type=authorization_code',
    );
    expect(redactText('Authorization: Bearer abc.def rest', names)).toBe(
      'Authorization: [redacted] rest',
    );
    expect(redactText('the key sk-live-123456 was refused', names, ['sk-live-123456'])).toBe(
      'the key [redacted] was refused',
    );
  });

  it('reads Retry-After as seconds, a date or retry-after-ms; nothing when absent or past', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '15', 'retry-after': '9' }))).toBe(15);
    // A date counts from the answer's own Date header.
    const sent = 'Mon, 01 Jan 2001 00:00:00 GMT';
    expect(
      retryAfterMs(new Headers({ date: sent, 'retry-after': 'Mon, 01 Jan 2001 00:00:05 GMT' })),
    ).toBe(5000);
    expect(retryAfterMs(new Headers({ date: sent, 'retry-after': sent }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': sent }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': '0' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});
