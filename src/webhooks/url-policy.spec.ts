import { refusedAddress, refusedWebhookUrl, ResolveHost } from './url-policy';

const resolveTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses;
const neverResolve: ResolveHost = async (host) => {
  throw new Error(`no lookup expected for ${host}`);
};
const strict = { production: false, allowPrivate: false };
const relaxed = { production: false, allowPrivate: true };

describe('webhook URL policy', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://127.1.2.3/hook',
    'http://2130706433/hook', // decimal 127.0.0.1
    'http://0x7f000001/hook', // hex
    'http://0x7f.1/hook',
    'http://0.0.0.0/hook',
    'http://10.1.2.3/hook',
    'http://100.64.0.1/hook',
    'http://172.16.0.1/hook',
    'http://172.31.255.255/hook',
    'http://192.168.1.1/hook',
    'http://169.254.1.1/hook',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:7f00:1]/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[::ffff:192.168.0.1]/hook',
    'http://[fc00::1]/hook',
    'http://[fd12:3456::1]/hook',
    'http://[fe80::1]/hook',
    'http://localhost/hook',
    'http://LOCALHOST./hook',
    'http://api.localhost:3000/hook',
  ])('refuses %s without WEBHOOK_ALLOW_PRIVATE_URLS, allows it with', async (url) => {
    expect(await refusedWebhookUrl(url, strict, neverResolve)).toBeDefined();
    expect(await refusedWebhookUrl(url, relaxed, resolveTo('127.0.0.1'))).toBeUndefined();
  });

  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://2852039166/', // decimal 169.254.169.254
    'http://[fd00:ec2::254]/',
  ])('refuses the metadata address %s even with private URLs allowed', async (url) => {
    expect(await refusedWebhookUrl(url, relaxed, neverResolve)).toMatch(/metadata/);
  });

  it.each([
    'https://203.0.113.10/hook',
    'http://198.51.100.7:8080/hook',
    'https://[2001:db8::1]/hook',
    'https://[::ffff:203.0.113.10]/hook',
    'http://172.32.0.1/hook',
    'http://11.0.0.1/hook',
  ])('allows the public address %s', async (url) => {
    expect(await refusedWebhookUrl(url, strict, neverResolve)).toBeUndefined();
  });

  it('allows http outside production, https only in production, no other scheme', async () => {
    const production = { production: true, allowPrivate: false };
    expect(await refusedWebhookUrl('http://203.0.113.10/', production, neverResolve)).toBe(
      'url must use https',
    );
    expect(await refusedWebhookUrl('https://203.0.113.10/', production, neverResolve)).toBe(
      undefined,
    );
    for (const url of ['ftp://203.0.113.10/', 'file:///etc/passwd', 'gopher://203.0.113.10/']) {
      expect(await refusedWebhookUrl(url, relaxed, neverResolve)).toBe(
        'url must use https or http',
      );
    }
    expect(await refusedWebhookUrl('not a url', relaxed, neverResolve)).toBe(
      'url is not an absolute URL',
    );
  });

  it('resolves host names and refuses them when any address is refused', async () => {
    const url = 'https://hooks.acme.test/in';
    expect(await refusedWebhookUrl(url, strict, resolveTo('203.0.113.10'))).toBeUndefined();
    expect(await refusedWebhookUrl(url, strict, resolveTo('203.0.113.10', '10.0.0.5'))).toBe(
      'hooks.acme.test resolves to 10.0.0.5, a loopback, private, link-local or unique-local address',
    );
    expect(await refusedWebhookUrl(url, strict, resolveTo('::ffff:127.0.0.1'))).toMatch(
      /resolves to ::ffff:127\.0\.0\.1/,
    );
    expect(await refusedWebhookUrl(url, relaxed, resolveTo('10.0.0.5'))).toBeUndefined();
    expect(await refusedWebhookUrl(url, relaxed, resolveTo('169.254.169.254'))).toMatch(/metadata/);
    expect(await refusedWebhookUrl(url, strict, resolveTo())).toBe(
      'hooks.acme.test does not resolve',
    );
    const failing: ResolveHost = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await refusedWebhookUrl(url, strict, failing)).toBe('hooks.acme.test does not resolve');
  });

  it('refuses what is no IP address in refusedAddress', () => {
    expect(refusedAddress('example', true)).toBe('example, not an IP address');
    expect(refusedAddress('8.8.8.8', false)).toBeUndefined();
  });

  it('checks the IPv4 address a NAT64 or 6to4 address reaches', () => {
    expect(refusedAddress('64:ff9b::a9fe:a9fe', true)).toMatch(
      /169\.254\.169\.254, a cloud metadata/,
    );
    expect(refusedAddress('64:ff9b::169.254.169.254', true)).toMatch(/cloud metadata/);
    expect(refusedAddress('64:ff9b::7f00:1', false)).toMatch(/reaches 127\.0\.0\.1/);
    expect(refusedAddress('2002:a00:1::1', false)).toMatch(/reaches 10\.0\.0\.1/);
    expect(refusedAddress('2002:a9fe:a9fe::', true)).toMatch(/cloud metadata/);
    expect(refusedAddress('64:ff9b::7f00:1', true)).toBeUndefined();
    expect(refusedAddress('64:ff9b::cb00:710a', false)).toBeUndefined(); // 203.0.113.10
    expect(refusedAddress('2001:db8::7f00:1', false)).toBeUndefined();
  });
});
