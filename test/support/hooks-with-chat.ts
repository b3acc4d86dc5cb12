import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { FakeChat } from '../fakes/chat';
import { FakeLlm } from '../fakes/llm';
import { createTestApp, TestApp } from './app';

export interface HooksWithChat {
  t: TestApp;
  llm: FakeLlm;
  chat: FakeChat;
  /** POSTs to the hooks' `path` with the app's token. */
  hook(path: string, body: object): Test;
}

/**
 * An app with gateway hooks on (no periodic heartbeat), a fake model and a fake chat server, made
 * before the file's tests and closed after them; the model's script is reset before each test.
 * The fields are there once the file's `beforeAll` hooks run (register yours after calling this).
 */
export function hooksWithChat(): HooksWithChat {
  const token = randomBytes(24).toString('hex');
  const world = {
    hook: (path: string, body: object) =>
      world.t.http.post(`/hooks/${path}`).set('Authorization', `Bearer ${token}`).send(body),
  } as HooksWithChat;
  beforeAll(async () => {
    world.llm = await FakeLlm.start();
    world.chat = await FakeChat.start();
    world.t = await createTestApp({
      env: {
        ...world.llm.env(),
        ...world.chat.env(),
        HOOKS_ENABLED: 'true',
        HOOKS_TOKEN: token,
        HOOKS_HEARTBEAT_EVERY: '0',
      },
    });
  });
  beforeEach(() => world.llm.reset());
  afterAll(async () => {
    await world.t.close();
    await world.llm.close();
    await world.chat.close();
  });
  return world;
}
