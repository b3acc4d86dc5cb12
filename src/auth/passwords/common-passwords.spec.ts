import { isCommonPassword } from './common-passwords';

describe('common passwords', () => {
  it('knows the usual suspects, in any case', () => {
    for (const p of ['password', 'PASSWORD1', '12345678', 'qwertyuiop', 'iloveyou']) {
      expect(isCommonPassword(p)).toBe(true);
    }
  });

  it('lets an uncommon password through', () => {
    expect(isCommonPassword('correct horse battery staple 42')).toBe(false);
  });
});
