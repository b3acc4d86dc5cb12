import {
  newPrivateChannelName,
  newTeamName,
  randomPassword,
  retryUsername,
  usernameFor,
} from './chat-names';

describe('chat names', () => {
  it('makes a username from the e-mail local part', () => {
    expect(usernameFor('Ada.Lovelace+test@example.com')).toBe('ada.lovelacetest');
    expect(usernameFor('42@example.com')).toBe('u42');
    expect(usernameFor('a@example.com')).toBe('a00');
    expect(usernameFor('éé@example.com')).toBe('u00');
    expect(usernameFor('_x@example.com')).toBe('u_x');
    expect(usernameFor(`${'b'.repeat(80)}@example.com`)).toHaveLength(64);
  });

  it('retries with a cut base and four hex characters', () => {
    const retry = retryUsername('c'.repeat(64));
    expect(retry).toMatch(/^c{59}-[0-9a-f]{4}$/);
  });

  it('makes 40-character passwords with every character class', () => {
    for (let i = 0; i < 50; i++) {
      const p = randomPassword();
      expect(p).toHaveLength(40);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[0-9]/);
      expect(p).toMatch(/[^a-zA-Z0-9]/);
    }
    expect(randomPassword()).not.toBe(randomPassword());
  });

  it('names teams and private channels unpredictably (issue 35)', () => {
    expect(newTeamName()).toMatch(/^org-[0-9a-f]{32}$/);
    expect(newTeamName()).not.toBe(newTeamName());
    expect(newPrivateChannelName()).toMatch(/^cap-table-[0-9a-f]{32}$/);
    expect(newPrivateChannelName()).not.toBe(newPrivateChannelName());
  });
});
