import { parseMailbox } from './mailbox';

describe('parseMailbox', () => {
  it('reads a bare address and a display name', () => {
    expect(parseMailbox('no-reply@example.com')).toEqual({
      name: '',
      address: 'no-reply@example.com',
    });
    expect(parseMailbox('Ledgerline <no-reply@example.com>')).toEqual({
      name: 'Ledgerline',
      address: 'no-reply@example.com',
    });
  });

  it('refuses malformed mailboxes and lists', () => {
    expect(parseMailbox('Ledgerline <no-reply@>')).toBeNull();
    expect(parseMailbox('two@a.test, three@b.test')).toBeNull();
    expect(parseMailbox('')).toBeNull();
    expect(parseMailbox(42)).toBeNull();
  });
});
