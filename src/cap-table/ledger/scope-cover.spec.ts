import { scopeCovers } from './scope-cover';

describe('scopeCovers', () => {
  it('asks only that a set named by a rule is the one loaded', () => {
    expect(scopeCovers({ securities: ['a'], holdingsOfClass: 'a' }, { holdingsOfClass: 'a' })).toBe(
      true,
    );
    expect(scopeCovers({ securities: ['a'] }, { holdingsOfClass: 'a' })).toBe(false);
    expect(scopeCovers({ legendToDelete: 'x' }, { legendToDelete: 'y' })).toBe(false);
    expect(scopeCovers({ scheduleToChange: 's' }, { scheduleToChange: 's' })).toBe(true);
  });

  it('leaves records named by id to the reducer (what was not loaded is not found)', () => {
    expect(scopeCovers({}, { shareholdings: ['h'], plans: ['p'] })).toBe(true);
  });
});
