import { clientNetwork } from './client-network';

describe('clientNetwork', () => {
  it('counts an IPv6 address by its /64', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff::3')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('keeps an IPv4 address (mapped or not) as it is, and anything else as given', () => {
    expect(clientNetwork('192.0.2.10')).toBe('192.0.2.10');
    expect(clientNetwork('::ffff:192.0.2.10')).toBe('192.0.2.10');
    expect(clientNetwork('unknown')).toBe('unknown');
  });
});
