/**
 * The vesting part of `npm run bench`: cap-math's projection of 10,000 grants
 * (libs/cap-math/bench/vesting-projection.ts), against its 1 s target. It runs in a process of its
 * own, as its file is a script: a fresh heap and JIT, untouched by the servers and load of the
 * list benchmarks. Needs no database.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join('libs', 'cap-math', 'bench', 'vesting-projection.ts');
/** The line the script prints: `10000 grants, 370000 vesting events projected in 123.4 ms (target 1000 ms): PASS`. */
const RESULT = /^(\d+) grants, (\d+) vesting events projected in ([\d.]+) ms \(target (\d+) ms\)/m;

export interface VestingBench {
  grants: number;
  events: number;
  ms: number;
  targetMs: number;
  pass: boolean;
}

export async function benchVesting(root: string): Promise<VestingBench> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(root, SCRIPT)],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  // The script exits 1 when over its target: still a result to report, not a failure to run.
  const match = RESULT.exec(output);
  if (!match) throw new Error(`the vesting projection bench printed no result:\n${output}`);
  const [, grants, events, ms, targetMs] = match;
  const result = {
    grants: Number(grants),
    events: Number(events),
    ms: Number(ms),
    targetMs: Number(targetMs),
  };
  return { ...result, pass: result.ms < result.targetMs };
}

export function reportVesting(r: VestingBench) {
  console.log(
    `\nvesting projection of ${r.grants.toLocaleString('en-US')} grants: ${r.ms.toFixed(0)} ms ` +
      `(target < ${r.targetMs} ms)`,
  );
  console.log(`  ${r.events.toLocaleString('en-US')} vesting events projected`);
  console.log(
    `  ${r.pass ? 'PASS' : 'FAIL'} vesting projection < ${r.targetMs} ms: ${r.ms.toFixed(1)} ms`,
  );
}
