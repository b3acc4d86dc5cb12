import type { INestApplication } from '@nestjs/common';
import { Clock, TokenFailureThrottle } from '../../common';
import { Env } from '../../config';
import { RedisConnections } from '../../redis';
import { HOOK_ACTIONS, HookActions } from '../hook-actions';
import { hooksRouter } from './hooks-router';

/**
 * Mounts the gateway hooks at HOOKS_PATH when HOOKS_ENABLED; called by setupApp right after the
 * request id, before the app's body parsers and session (the router reads its own body). The
 * HookActions provider is looked up on the first request that needs it, so the app boots (and
 * answers 503) without it.
 */
export function mountHooks(app: INestApplication): void {
  const env = app.get(Env);
  if (!env.HOOKS_ENABLED) return;
  let actions: HookActions | undefined;
  const lookUp = () => {
    try {
      actions ??= app.get<HookActions>(HOOK_ACTIONS, { strict: false });
    } catch {
      // Not provided (yet): the request is answered 503.
    }
    return actions;
  };
  const redis = app.get(RedisConnections);
  const clock = app.get(Clock);
  const failures = new TokenFailureThrottle(
    redis.session(),
    `${redis.prefix}hook-token-failures:`,
    clock,
  );
  app.use(env.HOOKS_PATH, hooksRouter({ env, actions: lookUp, failures, clock }));
}

export { hooksRouter } from './hooks-router';
export type { HooksRouterOptions } from './hooks-router';
