import { ShutdownPlan, ShutdownState, stopGracefullyOn } from './graceful-shutdown';
import type { HttpDrain } from './http-drain';

/** A plan whose steps end when the test says; what it logged and how it exited. */
function plan(graceMs: number) {
  const ends = new Map<string, () => void>();
  const step = (name: string) => () => new Promise<void>((done) => ends.set(name, done));
  const logged: string[] = [];
  const exits: number[] = [];
  const order: string[] = [];
  const state = new ShutdownState();
  const shutdown: ShutdownPlan = {
    graceMs,
    logger: {
      log: (m: string) => logged.push(m),
      warn: (m: string) => logged.push(m),
      error: (m: string) => logged.push(m),
    },
    state,
    http: { drain: step('requests'), pending: 2 } as unknown as HttpDrain,
    stopBackgroundWork: step('background work'),
    finishJobs: step('jobs'),
    close: () => {
      order.push('close');
      return Promise.resolve();
    },
    exit: (code) => exits.push(code),
  };
  const end = (name: string) => {
    order.push(name);
    ends.get(name)!();
  };
  return { shutdown, state, logged, exits, order, end };
}

const turn = () => new Promise((r) => setTimeout(r, 10));

describe('stopGracefullyOn', () => {
  it('drains (requests, background work, jobs), then closes and exits 0', async () => {
    const p = plan(60_000);
    const stop = stopGracefullyOn(p.shutdown, []);
    void stop('SIGTERM');
    await turn();
    expect(p.state.draining).toBe(true);
    p.end('jobs');
    p.end('requests');
    await turn();
    expect(p.order).toEqual(['jobs', 'requests']);
    expect(p.exits).toEqual([]);
    p.end('background work');
    await turn();
    expect(p.order).toEqual(['jobs', 'requests', 'background work', 'close']);
    expect(p.exits).toEqual([0]);
  });

  it('exits 1 past the grace, saying what was left', async () => {
    const p = plan(30);
    void stopGracefullyOn(p.shutdown, [])('SIGTERM');
    p.end('background work');
    await new Promise((r) => setTimeout(r, 80));
    expect(p.exits).toEqual([1]);
    expect(p.logged.join('\n')).toMatch(
      /Not stopped within SHUTDOWN_GRACE_MS \(30 ms\): exiting with 2 requests, jobs unfinished/,
    );
    expect(p.order).not.toContain('close');
  });

  it('exits at once on a second signal', async () => {
    const p = plan(60_000);
    const stop = stopGracefullyOn(p.shutdown, []);
    void stop('SIGTERM');
    void stop('SIGINT');
    await turn();
    expect(p.exits).toEqual([1]);
  });
});
