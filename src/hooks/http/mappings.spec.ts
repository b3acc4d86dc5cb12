import { applyMapping, findMapping, MappingFailed } from './mappings';
import { PRESETS } from './presets';
import type { LoadedMapping } from './transforms';

const mapping = (fields: Partial<LoadedMapping>): LoadedMapping => ({
  match: {},
  action: 'agent',
  label: 'mapping',
  ...fields,
});

const ctx = (payload: Record<string, unknown>, path = 'github') => ({
  payload,
  headers: { 'x-github-event': 'push' },
  query: {},
  path,
  url: `http://hooks.invalid/hooks/${path}`,
  now: new Date('2026-01-02T03:04:05.000Z'),
});

describe('hook mappings', () => {
  const byPath = mapping({ match: { path: 'github' }, label: 'path' });
  const bySource = mapping({ match: { source: 'crm' }, label: 'source' });
  const both = mapping({ match: { path: 'ci', source: 'jenkins' }, label: 'both' });
  const all = [both, byPath, bySource, mapping({ ...PRESETS.gmail, label: 'gmail' })];

  it('matches the sub-path and the payload’s string source; the first match wins', () => {
    const found = (path: string, payload: Record<string, unknown> = {}) =>
      findMapping(all, path, payload)?.label;
    expect(found('github')).toBe('path');
    expect(found('github', { source: 'crm' })).toBe('path');
    expect(found('anything', { source: 'crm' })).toBe('source');
    expect(found('anything', { source: ['crm'] })).toBeUndefined();
    expect(found('ci', { source: 'jenkins' })).toBe('both');
    expect(found('ci')).toBeUndefined();
    expect(found('gmail')).toBe('gmail');
    expect(found('GitHub')).toBeUndefined();
  });

  it('renders the templates over the literals; an empty session key is none', async () => {
    const m = mapping({
      name: 'GitHub',
      messageTemplate: '{{headers.x-github-event}} to {{repository.name}}',
      sessionKey: 'hook:gh:{{repository.id}}',
      deliver: false,
      timeoutSeconds: 30,
    });
    expect(await applyMapping(m, ctx({ repository: { name: 'll', id: 7 } }), [])).toEqual({
      fields: expect.objectContaining({
        action: 'agent',
        name: 'GitHub',
        message: 'push to ll',
        sessionKey: 'hook:gh:7',
        deliver: false,
        timeoutSeconds: 30,
      }),
    });
    const outcome = await applyMapping(m, ctx({}), []);
    expect('fields' in outcome && outcome.fields.sessionKey).toBeUndefined();
  });

  it('renders the gmail preset from the first message', async () => {
    const payload = {
      messages: [
        { id: 'm1', from: 'a@b.test', subject: 'Hi', snippet: 'Hello…', body: 'Hello there' },
      ],
    };
    expect(await applyMapping(mapping(PRESETS.gmail), ctx(payload, 'gmail'), [])).toEqual({
      fields: expect.objectContaining({
        name: 'Gmail',
        sessionKey: 'hook:gmail:m1',
        message: 'New email from a@b.test\nSubject: Hi\nHello…\nHello there',
      }),
    });
  });

  it('lets the transform override the fields, or skip the request', async () => {
    const seen: unknown[] = [];
    const m = mapping({
      messageTemplate: 'from the template',
      run: (c) => {
        seen.push(c);
        return (c.payload as { skip?: boolean }).skip
          ? null
          : { message: 'from the transform', timeoutSeconds: 9.7 };
      },
    });
    expect(await applyMapping(m, ctx({ a: 1 }), [])).toEqual({
      fields: expect.objectContaining({ message: 'from the transform', timeoutSeconds: 9 }),
    });
    expect(seen[0]).toEqual({
      payload: { a: 1 },
      headers: { 'x-github-event': 'push' },
      url: 'http://hooks.invalid/hooks/github',
      path: 'github',
    });
    expect(await applyMapping(m, ctx({ skip: true }), [])).toEqual({ skip: true });
  });

  it('answers a bad field of the transform as the 400’s message', async () => {
    const m = mapping({ run: () => ({ channel: 'slack' }) });
    expect(await applyMapping(m, ctx({}), [])).toEqual({
      error: 'channel must be last or chat (got "slack")',
    });
    const model = mapping({ run: () => ({ model: 'other' }) });
    expect(await applyMapping(model, ctx({}), ['claude-sonnet-4-6'])).toEqual({
      error: 'model must be one of LLM_ALLOWED_MODELS (claude-sonnet-4-6)',
    });
  });

  it('fails the mapping when the transform throws or returns something else', async () => {
    for (const run of [
      () => {
        throw new Error('boom');
      },
      async () => Promise.reject(new Error('boom')),
      () => 'text',
      () => [1],
      () => ({ mesage: 'typo' }),
    ]) {
      await expect(applyMapping(mapping({ run, label: 'm' }), ctx({}), [])).rejects.toBeInstanceOf(
        MappingFailed,
      );
    }
  });
});
