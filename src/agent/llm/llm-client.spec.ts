import { createServer } from 'node:http';
import { FakeLlm } from '../../../test/fakes/llm';
import { listenOnFreePort } from '../../../test/fakes/listen';
import { DomainError } from '../../common';
import { validateEnv } from '../../config';
import { LlmClient } from './llm-client';
import type { MessageParam, ToolUseBlock } from '.';

const hello: MessageParam[] = [{ role: 'user', content: 'Hello' }];

/** The real client (the SDK over HTTP) against FakeLlm. */
describe('LlmClient', () => {
  let fake: FakeLlm;
  beforeAll(async () => (fake = await FakeLlm.start()));
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const client = (vars: Record<string, string> = {}) =>
    new LlmClient(validateEnv({ ...fake.env(), ...vars }));

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (err: unknown) => {
        expect(err).toBeInstanceOf(DomainError);
        return err as DomainError;
      },
    );

  it('sends a Messages API request and answers the message', async () => {
    fake.reply('Hi, how can I help?');
    const message = await client().createMessage({ system: 'Be brief.', messages: hello });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [{ type: 'text', text: 'Hi, how can I help?' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(message.id).toMatch(/^msg_01\w{22}$/);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages' });
    // SDK 1.x (API version 2026-10-21) sends the API key as a bearer token, not as x-api-key.
    expect(request.headers['authorization']).toBe(`Bearer ${fake.apiKey}`);
    expect(request.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(request.body).toMatchObject({ system: 'Be brief.', messages: hello });
  });

  it('fills in LLM_MODEL and LLM_MAX_TOKENS, and sends what the request sets instead', async () => {
    const llm = client({ LLM_MAX_TOKENS: '1234' });
    expect(llm.defaultModel).toBe('claude-sonnet-4-6');
    await llm.createMessage({ messages: hello });
    expect(fake.lastBody()).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 1234 });
    await llm.createMessage({ messages: hello, model: 'claude-haiku-4-5', max_tokens: 50 });
    expect(fake.lastBody()).toMatchObject({ model: 'claude-haiku-4-5', max_tokens: 50 });
    await client({ LLM_MODEL: 'claude-opus-4-6' }).createMessage({ messages: hello });
    expect(fake.lastBody()).toMatchObject({ model: 'claude-opus-4-6', max_tokens: 4096 });
  });

  it('refuses a model outside LLM_ALLOWED_MODELS with 400, sending nothing', async () => {
    const llm = client({
      LLM_MODEL: 'claude-sonnet-4-6',
      LLM_ALLOWED_MODELS: 'claude-sonnet-4-6, claude-haiku-4-5',
    });
    expect(llm.modelAllowed('claude-haiku-4-5')).toBe(true);
    expect(llm.modelAllowed('claude-opus-4-6')).toBe(false);
    const err = await refusal(llm.createMessage({ messages: hello, model: 'claude-opus-4-6' }));
    expect(err).toMatchObject({ key: 'badRequest', status: 400 });
    expect(err.message).toMatch(/model "claude-opus-4-6" is not allowed/);
    expect(fake.requests).toHaveLength(0);
    await llm.createMessage({ messages: hello, model: 'claude-haiku-4-5' });
    await llm.createMessage({ messages: hello });
    expect(fake.requests.map((r) => r.body.model)).toEqual([
      'claude-haiku-4-5',
      'claude-sonnet-4-6',
    ]);
  });

  it('answers tool calls and takes their results back', async () => {
    fake.toolUse(
      [
        { name: 'list_share_classes', input: { organization: 'org-1' } },
        { name: 'get_member', input: { member: 'm-1' }, id: 'toolu_given' },
      ],
      'Let me look.',
    );
    fake.reply('There are two share classes.');
    const llm = client();
    const tools = [
      {
        name: 'list_share_classes',
        description: 'The share classes of an organization',
        input_schema: { type: 'object' as const, properties: { organization: { type: 'string' } } },
      },
    ];
    const first = await llm.createMessage({ messages: hello, tools });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content[0]).toMatchObject({ type: 'text', text: 'Let me look.' });
    const uses = first.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    expect(uses.map((u) => [u.name, u.input])).toEqual([
      ['list_share_classes', { organization: 'org-1' }],
      ['get_member', { member: 'm-1' }],
    ]);
    expect(uses[0].id).toMatch(/^toolu_01\w{22}$/);
    expect(uses[1].id).toBe('toolu_given');

    const second = await llm.createMessage({
      tools,
      messages: [
        ...hello,
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: uses.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content: '[]' })),
        },
      ],
    });
    expect(second.content).toMatchObject([{ type: 'text', text: 'There are two share classes.' }]);
    expect(fake.lastBody().tools).toEqual(tools);
    expect(fake.lastBody().messages[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: uses[0].id }, { tool_use_id: 'toolu_given' }],
    });
  });

  it('answers the default text once the script is spent', async () => {
    fake.defaultText = 'Nothing scripted.';
    const message = await client().createMessage({ messages: hello });
    expect(message.content).toMatchObject([{ type: 'text', text: 'Nothing scripted.' }]);
  });

  it('retries a 429 after the retry-after it asks for, then answers', async () => {
    fake.status(429, { retryAfter: 1 }).reply('after the wait');
    const started = Date.now();
    const message = await client().createMessage({ messages: hello });
    expect(message.content).toMatchObject([{ text: 'after the wait' }]);
    expect(fake.requests).toHaveLength(2);
    // The SDK's own backoff before a first retry is at most 0.5 s: this waited the 1 s asked for.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('answers 503 agentUnavailable once 529s outlast LLM_MAX_RETRIES', async () => {
    fake.overloaded({ times: 10, retryAfterMs: 10 });
    const err = await refusal(client().createMessage({ messages: hello }));
    expect(err).toMatchObject({ key: 'agentUnavailable', status: 503 });
    expect(err.details.headers).toEqual({ 'Retry-After': '1' });
    expect(fake.requests).toHaveLength(3);

    fake.reset();
    fake.overloaded({ times: 10, retryAfterMs: 10 });
    await refusal(client({ LLM_MAX_RETRIES: '4' }).createMessage({ messages: hello }));
    expect(fake.requests).toHaveLength(5);

    fake.reset();
    fake.overloaded({ times: 10 });
    await refusal(client({ LLM_MAX_RETRIES: '0' }).createMessage({ messages: hello }));
    expect(fake.requests).toHaveLength(1);
  });

  it('recovers when a 529 is followed by an answer within the retries', async () => {
    fake.overloaded({ times: 2, retryAfterMs: 10 }).reply('made it');
    const message = await client().createMessage({ messages: hello });
    expect(message.content).toMatchObject([{ text: 'made it' }]);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up at once, passing on its Retry-After, when the provider asks to wait over a minute', async () => {
    fake.status(429, { retryAfter: 3600 }).reply('never asked');
    const started = Date.now();
    const err = await refusal(client().createMessage({ messages: hello }));
    expect(err).toMatchObject({ key: 'agentUnavailable', status: 503 });
    expect(err.details.headers).toEqual({ 'Retry-After': '3600' });
    expect(fake.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('does not retry what the provider refuses (401, 400): 503, one request', async () => {
    const wrongKey = await refusal(
      client({ LLM_API_KEY: 'not-the-key' }).createMessage({ messages: hello }),
    );
    expect(wrongKey).toMatchObject({ key: 'agentUnavailable', status: 503 });
    expect(wrongKey.details.headers).toBeUndefined();
    fake.status(400, { message: 'messages: roles must alternate' });
    await refusal(client().createMessage({ messages: hello }));
    expect(fake.requests).toHaveLength(2);
  });

  it('answers 503 when every attempt outlasts LLM_TIMEOUT_MS', async () => {
    fake.hang(2);
    const started = Date.now();
    const err = await refusal(
      client({ LLM_TIMEOUT_MS: '200', LLM_MAX_RETRIES: '1' }).createMessage({ messages: hello }),
    );
    expect(err).toMatchObject({ key: 'agentUnavailable', status: 503 });
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('answers 503 when the provider cannot be reached', async () => {
    const closed = createServer();
    const port = await listenOnFreePort(closed);
    await new Promise((resolve) => closed.close(resolve));
    const err = await refusal(
      client({ LLM_BASE_URL: `http://127.0.0.1:${port}`, LLM_MAX_RETRIES: '0' }).createMessage({
        messages: hello,
      }),
    );
    expect(err).toMatchObject({ key: 'agentUnavailable', status: 503 });
  });

  it('answers 503 when the caller aborts', async () => {
    fake.hang();
    const abort = new AbortController();
    const pending = client().createMessage({ messages: hello }, { signal: abort.signal });
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    abort.abort();
    await expect(pending).rejects.toMatchObject({ key: 'agentUnavailable', status: 503 });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not exist without LLM_API_KEY', () => {
    expect(() => new LlmClient(validateEnv({}))).toThrow(/LLM_API_KEY/);
  });
});
