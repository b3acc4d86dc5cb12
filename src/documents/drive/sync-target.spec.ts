import { normaliseFileTypeFilter, normaliseTargetPath } from './sync-target';

describe('normaliseTargetPath', () => {
  it.each([
    ['', ''],
    ['/', ''],
    ['  //  ', ''],
    ['Board', 'Board'],
    ['/Board/Minutes/', 'Board/Minutes'],
    ['// Board / 2024 //', 'Board/2024'],
    ['Ünïcode/名前', 'Ünïcode/名前'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseTargetPath(input)).toEqual({ value: expected });
  });

  it.each(['..', 'a/../b', 'a/./b', 'a//b', 'a/\\b', 'a/b\u0001', `a/${'x'.repeat(256)}`])(
    'refuses %j',
    (input) => {
      expect(normaliseTargetPath(input)).toEqual({ problem: expect.any(String) });
    },
  );

  it('refuses a path longer than its column', () => {
    const long = Array.from({ length: 5 }, () => 'x'.repeat(250)).join('/');
    expect(normaliseTargetPath(long)).toEqual({ problem: expect.stringMatching(/1024/) });
  });
});

describe('normaliseFileTypeFilter', () => {
  const allowed = ['pdf', 'txt', 'docx', 'png'];

  it.each([
    ['', ''],
    [' , ,', ''],
    ['PDF', 'pdf'],
    ['txt, PDF ,pdf', 'pdf,txt'],
    ['docx,png,pdf', 'docx,pdf,png'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseFileTypeFilter(input, allowed)).toEqual({ value: expected });
  });

  it.each(['.pdf', 'pdf,exe', 'tar.gz', 'p df'])('refuses %j', (input) => {
    expect(normaliseFileTypeFilter(input, allowed)).toEqual({ problem: expect.any(String) });
  });
});
