import { renderKey, renderTemplate, TemplateContext } from './templates';

const ctx: TemplateContext = {
  payload: {
    repository: { name: 'ledgerline', owner: { login: 'acme' } },
    commits: [{ id: 'c1' }, { id: 'c2', tags: ['a', 'b'] }],
    count: 3,
    flag: false,
    nothing: null,
    'odd-key_1': 'ok',
  },
  headers: { 'x-github-event': 'push' },
  query: { branch: 'main' },
  path: 'github',
  now: new Date('2026-01-02T03:04:05.000Z'),
};

describe('hook templates', () => {
  it('reads the payload with or without its prefix, through indexes', () => {
    expect(renderTemplate('{{payload.repository.name}} / {{repository.owner.login}}', ctx)).toBe(
      'ledgerline / acme',
    );
    expect(
      renderTemplate('{{commits[1].id}} {{commits[1].tags[0]}} {{ commits[0].id }}', ctx),
    ).toBe('c2 a c1');
    expect(renderTemplate('{{odd-key_1}}', ctx)).toBe('ok');
  });

  it('reads headers, the query, the sub-path and the time', () => {
    expect(
      renderTemplate('{{headers.x-github-event}} {{query.branch}} {{path}} {{now}}', ctx),
    ).toBe('push main github 2026-01-02T03:04:05.000Z');
  });

  it('renders missing values empty, scalars as text and objects as JSON', () => {
    expect(renderTemplate('[{{missing.deep}}][{{commits[9].id}}][{{nothing}}]', ctx)).toBe(
      '[][][]',
    );
    expect(renderTemplate('{{count}} {{flag}} {{commits.length}}', ctx)).toBe('3 false 2');
    expect(renderTemplate('{{repository.owner}}', ctx)).toBe('{"login":"acme"}');
    expect(renderTemplate('{{commits[1].tags}}', ctx)).toBe('["a","b"]');
  });

  it('never reaches past the payload’s own data', () => {
    const payload = JSON.parse('{"__proto__": {"x": "polluted"}, "a": {"b": 1}}') as Record<
      string,
      unknown
    >;
    const own = { ...ctx, payload };
    for (const template of [
      '{{__proto__}}',
      '{{__proto__.x}}',
      '{{a.constructor}}',
      '{{a.constructor.name}}',
      '{{a.prototype}}',
      '{{a.toString}}',
      '{{a.hasOwnProperty}}',
      '{{headers.constructor}}',
    ]) {
      expect(renderTemplate(template, own)).toBe('');
    }
  });

  it('renders an expression outside the grammar empty and leaves other text alone', () => {
    expect(renderTemplate('{{a b}}|{{a..b}}|{{a[x]}}|{{}}|{ {a} }', ctx)).toBe('||||{ {a} }');
  });

  it('renders a key only when every value it names is there', () => {
    expect(renderKey('hook:gh:{{repository.name}}:{{count}}', ctx)).toBe('hook:gh:ledgerline:3');
    expect(renderKey('hook:gh:{{repository.id}}', ctx)).toBeUndefined();
    expect(renderKey('  ', ctx)).toBeUndefined();
    expect(renderKey('fixed', ctx)).toBe('fixed');
  });
});
