import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';

/** Work a caller around a request adds to every write transaction the request commits. */
export type BeforeCommit = (manager: EntityManager) => Promise<void>;

const current = new AsyncLocalStorage<readonly BeforeCommit[]>();

/**
 * Runs `work` so that every transaction the UnitOfWork opens inside it also runs `hook`, last,
 * before its commit: a record that the write happened, committed with the write or not at all
 * (the Idempotency-Key's "applied" mark).
 */
export function withBeforeCommit<T>(hook: BeforeCommit, work: () => T): T {
  return current.run([...(current.getStore() ?? []), hook], work);
}

/** The hooks of the work running now (none outside `withBeforeCommit`). */
export const beforeCommitHooks = (): readonly BeforeCommit[] => current.getStore() ?? [];
