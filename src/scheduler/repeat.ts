/**
 * Calls `fn` every `everyMs` in this process until the answered stop is called: what keeps a
 * lease alive while its holder works (a chat lock, an idempotency claim). Not a job: it runs
 * in every instance that holds something, and ends with the work. Periodic jobs are
 * `@Scheduled`; this is the one other place a repeating timer lives.
 */
export function repeatEvery(everyMs: number, fn: () => void): () => void {
  const timer = setInterval(fn, everyMs);
  // The work it accompanies keeps the process alive, not the timer.
  timer.unref();
  return () => clearInterval(timer);
}
