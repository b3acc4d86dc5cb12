/** Polls `check` until it stops throwing (or returns truthy), for effects of background jobs. */
export async function eventually<T>(
  check: () => Promise<T>,
  timeoutMs = 10_000,
  stepMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined && value !== null) return value;
      if (Date.now() > deadline) throw new Error('condition still false');
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
