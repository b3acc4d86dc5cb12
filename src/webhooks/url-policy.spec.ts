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
/** What a refused host name gets, whatever it resolved to (or whether it resolved at all). */
const NAME_REFUSED = 'url must resolve to a public address';

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
    // IPv4-compatible IPv6 (::/96, deprecated): reaches the IPv4 address on some stacks.
    'http://[::7f00:1]/hook',
    'http://[::a00:1]/hook',
    'http://[::808:808]/hook',
    // NAT64, the well-known prefix and the local-use one (RFC 8215): a translator's target.
    'http://[64:ff9b::7f00:1]/hook',
    'http://[64:ff9b::808:808]/hook',
    'http://[64:ff9b:1::a00:1]/hook',
    'http://[64:ff9b:1::808:808]/hook',
    // IPv4-translated (RFC 6145), 6to4, Teredo.
    'http://[::ffff:0:808:808]/hook',
    'http://[2002:a00:1::1]/hook',
    'http://[2002:808:808::1]/hook',
    'http://[2001::1]/hook',
    // Benchmarking (198.18.0.0/15, 2001:2::/48).
    'http://198.18.0.1/hook',
    'http://198.19.255.254/hook',
    'http://[2001:2::1]/hook',
    // Multicast and broadcast.
    'http://224.0.0.1/hook',
    'http://239.255.255.250/hook',
    'http://255.255.255.255/hook',
    'http://[ff02::1]/hook',
    'http://[ff0e::1]/hook',
    // Reserved, documentation and other special-purpose ranges.
    'http://240.0.0.1/hook',
    'http://192.0.0.8/hook',
    'http://192.0.2.1/hook',
    'http://198.51.100.7/hook',
    'http://203.0.113.10/hook',
    'http://192.88.99.1/hook',
    'http://[2001:db8::1]/hook',
    'http://[100::1]/hook',
    'http://[fec0::1]/hook',
    // Outside 2000::/3, the global unicast space of IPv6.
    'http://[4000::1]/hook',
    'http://[e000::1]/hook',
  ])('refuses %s, no global unicast address, even with private URLs allowed', async (url) => {
    expect(await refusedWebhookUrl(url, strict, neverResolve)).toBeDefined();
    expect(await refusedWebhookUrl(url, relaxed, neverResolve)).toBeDefined();
  });

  it.each([
    'https://8.8.8.8/hook',
    'http://1.1.1.1:8080/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://[2a00:1450:4001:80b::200e]/hook',
    'https://[::ffff:8.8.4.4]/hook',
    'http://172.32.0.1/hook',
    'http://11.0.0.1/hook',
    // Unallocated (the 6bone's, returned) but global unicast: what the tests register.
    'https://[3ffe::10]/hook',
  ])('allows the global unicast address %s', async (url) => {
    expect(await refusedWebhookUrl(url, strict, neverResolve)).toBeUndefined();
  });

  it('allows http outside production, https only in production, no other scheme', async () => {
    const production = { production: true, allowPrivate: false };
    expect(await refusedWebhookUrl('http://8.8.8.8/', production, neverResolve)).toBe(
      'url must use https',
    );
    expect(await refusedWebhookUrl('https://8.8.8.8/', production, neverResolve)).toBe(undefined);
    for (const url of ['ftp://8.8.8.8/', 'file:///etc/passwd', 'gopher://8.8.8.8/']) {
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
    expect(await refusedWebhookUrl(url, strict, resolveTo('8.8.8.8'))).toBeUndefined();
    expect(
      await refusedWebhookUrl(url, strict, resolveTo('8.8.8.8', '2606:4700:4700::1111')),
    ).toBeUndefined();
    expect(await refusedWebhookUrl(url, strict, resolveTo('8.8.8.8', '10.0.0.5'))).toBe(
      NAME_REFUSED,
    );
    expect(await refusedWebhookUrl(url, relaxed, resolveTo('10.0.0.5'))).toBeUndefined();
    expect(await refusedWebhookUrl(url, relaxed, resolveTo('::ffff:127.0.0.1'))).toBeUndefined();
  });

  it('says the same of a name, whatever it resolved to, and never which address', async () => {
    const url = 'https://hooks.acme.test/in';
    const answers: [string, ResolveHost, { allowPrivate: boolean }][] = [
      ['private', resolveTo('10.0.0.5'), strict],
      ['loopback', resolveTo('8.8.8.8', '127.0.0.1'), strict],
      ['IPv4-mapped loopback', resolveTo('::ffff:127.0.0.1'), strict],
      ['metadata', resolveTo('169.254.169.254'), relaxed],
      ['metadata v6', resolveTo('fd00:ec2::254'), relaxed],
      ['benchmarking', resolveTo('198.18.0.1'), relaxed],
      ['NAT64', resolveTo('64:ff9b::a9fe:a9fe'), relaxed],
      ['IPv4-compatible', resolveTo('::7f00:1'), relaxed],
      ['multicast', resolveTo('224.0.0.251'), relaxed],
      ['no address', resolveTo(), strict],
      ['not an address', resolveTo('example'), strict],
      ['lookup failed', () => Promise.reject(new Error('ENOTFOUND hooks.acme.test')), strict],
    ];
    for (const [why, resolve, options] of answers) {
      const refused = await refusedWebhookUrl(url, { production: false, ...options }, resolve);
      expect({ why, refused }).toEqual({ why, refused: NAME_REFUSED });
    }
  });

  it('tells what a literal address is (it is in the URL already)', async () => {
    expect(await refusedWebhookUrl('http://10.0.0.1/', strict, neverResolve)).toBe(
      'url points to 10.0.0.1, a loopback, private, link-local or unique-local address',
    );
    expect(await refusedWebhookUrl('http://169.254.169.254/', relaxed, neverResolve)).toBe(
      'url points to 169.254.169.254, a cloud metadata address',
    );
    expect(await refusedWebhookUrl('http://198.18.0.1/', relaxed, neverResolve)).toBe(
      'url points to 198.18.0.1, not a global unicast address',
    );
  });

  it('refusedAddress: what is no IP address, and the forms an address may take', () => {
    expect(refusedAddress('example', true)).toBe('example, not an IP address');
    expect(refusedAddress('0x7f.1', true)).toBe('0x7f.1, not an IP address');
    expect(refusedAddress('8.8.8.8', false)).toBeUndefined();
    expect(refusedAddress('::ffff:8.8.8.8', false)).toBeUndefined();
    expect(refusedAddress('::ffff:808:808', false)).toBeUndefined();
    expect(refusedAddress('::ffff:a9fe:a9fe', true)).toMatch(/cloud metadata/);
    expect(refusedAddress('64:ff9b::a9fe:a9fe', true)).toBeDefined();
    expect(refusedAddress('64:ff9b::169.254.169.254', true)).toBeDefined();
    expect(refusedAddress('2002:a9fe:a9fe::', true)).toBeDefined();
    // getaddrinfo prints ::7f00:1 so; ipaddr.js alone would read it as IPv4-mapped (loopback).
    expect(refusedAddress('::127.0.0.1', true)).toBe('::127.0.0.1, not a global unicast address');
    expect(refusedAddress('::8.8.8.8', false)).toBe('::8.8.8.8, not a global unicast address');
    expect(refusedAddress('fe80::1%eth0', true)).toBe('fe80::1%eth0, not an IP address');
  });
});
