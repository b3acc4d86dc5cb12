import { websiteKey } from './referred-companies.service';

describe('websiteKey', () => {
  it('is the host, lower-case, without www. or a trailing dot', () => {
    expect(websiteKey('https://WWW.Acme.Example/about?x=1')).toBe('acme.example');
    expect(websiteKey('acme.example')).toBe('acme.example');
    expect(websiteKey('http://acme.example.')).toBe('acme.example');
    expect(websiteKey('https://shop.acme.example')).toBe('shop.acme.example');
  });

  it('is null without a website', () => {
    expect(websiteKey(undefined)).toBeNull();
    expect(websiteKey('')).toBeNull();
  });
});
