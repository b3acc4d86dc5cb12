import { contactsOf, Person } from './people';

const person = (name: string | null, ...emails: string[]): Person => ({
  ...(name === null ? {} : { names: [{ displayName: name }] }),
  emailAddresses: emails.map((value) => ({ value })),
});

describe('contactsOf', () => {
  it('gives one contact per address, lower-cased, and none for people without one', () => {
    expect(
      contactsOf([
        person('Ada', 'Ada@Example.test', ' ada.work@example.test '),
        { names: [{ displayName: 'No Mail' }] },
        person('Empty', ''),
        person('Broken', 'not an address', 'no-at-sign'),
      ]),
    ).toEqual([
      { name: 'Ada', email: 'ada.work@example.test' },
      { name: 'Ada', email: 'ada@example.test' },
    ]);
  });

  it('keeps an address once, in any case, with the first name given for it', () => {
    expect(
      contactsOf([
        person(null, 'sam@example.test'),
        person('Sam', 'SAM@example.test'),
        person('Samuel', 'sam@EXAMPLE.test'),
      ]),
    ).toEqual([{ name: 'Sam', email: 'sam@example.test' }]);
  });

  it('takes the primary name, else the first; a blank one is none', () => {
    expect(
      contactsOf([
        {
          names: [{ displayName: 'Alias' }, { displayName: 'Real', metadata: { primary: true } }],
          emailAddresses: [{ value: 'real@example.test' }],
        },
        { names: [{ displayName: '  ' }], emailAddresses: [{ value: 'blank@example.test' }] },
      ]),
    ).toEqual([
      { name: 'Real', email: 'real@example.test' },
      { name: null, email: 'blank@example.test' },
    ]);
  });

  it('sorts by name, those without one last, then by e-mail', () => {
    expect(
      contactsOf([
        person(null, 'b@example.test'),
        person('Zed', 'z@example.test'),
        person(null, 'a@example.test'),
        person('Amy', 'amy2@example.test', 'amy1@example.test'),
      ]).map((c) => c.email),
    ).toEqual([
      'amy1@example.test',
      'amy2@example.test',
      'z@example.test',
      'a@example.test',
      'b@example.test',
    ]);
  });
});
