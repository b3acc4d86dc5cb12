/**
 * Calls `fn` every `everyMs` in this process until the answered stop is called: what keeps a
 * lease alive while its holder works (a chat lock, an idempotency claim, an upload slot). Not a
 * job: it runs in every instance that holds something, and ends with the work. Periodic jobs are
 * `@Scheduled` (src/scheduler, which exports this too); this is the one other place a repeating
 * timer lives. In common, beside the Clock, so that common's own leases use it.
 */
export function repeatEvery(everyMs: number, fn: () => void): () => void {
  const timer = setInterval(fn, everyMs);
  // The work it accompanies keeps the process alive, not the timer.
  timer.unref();
  return () => clearInterval(timer);
}
