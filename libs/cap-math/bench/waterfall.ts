/**
 * Exit waterfall of an organization with 10,000 holders (12,000 holdings in a common class and
 * four preferred series: stacked, pari passu, participating with a cap), 5,000 options with
 * about 3,000 different exercise prices, and 20 SAFEs and notes. Times one `waterfall` call at
 * each of five exit values (from inside the preference stack to far above every conversion;
 * the first call is cold: module and JIT warm-up included, as a one-off request pays them), the
 * warm median of five more, and `waterfallBreakpoints`, against 500 ms per evaluation and 1 s
 * for the breakpoints.
 *
 * Run: npx ts-node --transpile-only libs/cap-math/bench/waterfall.ts
 * It prints the figures and, last, one summary line (exit code 1 when over target):
 *   `waterfall: 10000 holders, 5000 options: slowest 123.4 ms, warm 45.6 ms (target 500 ms); 3213 breakpoints in 78.9 ms (target 1000 ms): PASS`
 * `benchWaterfall()` returns the same figures for an in-process caller (scripts/bench), though a
 * process of its own, as `npm run bench` runs the vesting projection, keeps the first figure cold.
 * Not a jest test: timings on shared CI machines are too noisy to gate a build on.
 */
import {
  WaterfallClass,
  WaterfallConvertible,
  WaterfallHolding,
  WaterfallOption,
  WaterfallStructure,
  waterfall,
  waterfallBreakpoints,
} from '../modeling/waterfall';

const HOLDERS = 10_000;
const OPTIONS = 5_000;
const CONVERTIBLES = 20;
export const WATERFALL_TARGET_MS = 500;
export const BREAKPOINTS_TARGET_MS = 1_000;
const EXITS = ['50000000', '300000000', '1000000000', '5000000000', '40000000000'];

export interface WaterfallBenchEvaluation {
  exitValue: string;
  ms: number;
  cpuMs: number;
  optionsExercised: number;
}

export interface WaterfallBench {
  holders: number;
  holdings: number;
  options: number;
  convertibles: number;
  /** One call per exit value, in order; the first is cold. */
  evaluations: WaterfallBenchEvaluation[];
  /** The slowest of `evaluations` (wall time). */
  slowestMs: number;
  /** Median of five more calls at the $1B exit, warm. */
  warmMs: number;
  breakpoints: number;
  breakpointsMs: number;
  targetMs: number;
  breakpointsTargetMs: number;
  pass: boolean;
}

/** The cap table of the bench: the same on every run (a small deterministic generator). */
export function benchStructure(): WaterfallStructure {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const classes: WaterfallClass[] = [
    { key: 'common', kind: 'common' },
    { key: 'seed', kind: 'preferred', seniority: 1, originalIssuePrice: '0.5' },
    {
      key: 'a',
      kind: 'preferred',
      seniority: 2,
      originalIssuePrice: '1.25',
      participating: true,
      participationCapMultiple: '3',
    },
    {
      key: 'b',
      kind: 'preferred',
      seniority: 2,
      originalIssuePrice: '3.1',
      conversionRatio: '1.1',
    },
    {
      key: 'c',
      kind: 'preferred',
      seniority: 3,
      originalIssuePrice: '7.75',
      liquidationPreferenceMultiple: '1.5',
    },
  ];
  const classKeys = classes.map((c) => c.key);
  const holdings: WaterfallHolding[] = [];
  for (let i = 0; i < HOLDERS; i++) {
    holdings.push({
      holderKey: `h${i}`,
      classKey: i < 6_000 ? 'common' : classKeys[1 + (i % 4)],
      shares: String(1 + Math.floor(random() * 100_000)),
    });
    if (i % 5 === 0) {
      holdings.push({
        holderKey: `h${i}`,
        classKey: classKeys[i % classKeys.length],
        shares: String(1 + Math.floor(random() * 50_000)),
      });
    }
  }
  const options: WaterfallOption[] = Array.from({ length: OPTIONS }, (_, i) => ({
    key: `o${i}`,
    holderKey: `h${Math.floor(random() * HOLDERS)}`,
    shares: String(1 + Math.floor(random() * 20_000)),
    // Cents from $0.01 to $50.00: most options have an exercise price of their own.
    exercisePrice: ((1 + Math.floor(random() * 5_000)) / 100).toFixed(2),
  }));
  const convertibles: WaterfallConvertible[] = Array.from({ length: CONVERTIBLES }, (_, i) => ({
    key: `s${i}`,
    holderKey: `h${i * 7}`,
    kind: i % 4 === 0 ? 'note' : i % 4 === 1 ? 'pre-money-safe' : 'post-money-safe',
    amount: String(100_000 + i * 25_000),
    valuationCap: i % 5 === 4 ? undefined : String(20_000_000 + i * 5_000_000),
  }));
  return { transactionExpenses: '2500000', classes, holdings, options, convertibles };
}

function timed<T>(run: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const value = run();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1e3 };
}

export function benchWaterfall(): WaterfallBench {
  const structure = benchStructure();
  const evaluations = EXITS.map((exitValue) => {
    const { value, ms, cpuMs } = timed(() => waterfall({ ...structure, exitValue }));
    const optionsExercised = value.options.filter((o) => o.exercised).length;
    return { exitValue, ms, cpuMs, optionsExercised };
  });
  const warm = Array.from(
    { length: 5 },
    () => timed(() => waterfall({ ...structure, exitValue: EXITS[2] })).ms,
  ).sort((a, b) => a - b)[2];
  const breakpoints = timed(() => waterfallBreakpoints(structure));
  const slowestMs = Math.max(...evaluations.map((e) => e.ms));
  return {
    holders: HOLDERS,
    holdings: structure.holdings.length,
    options: structure.options?.length ?? 0,
    convertibles: structure.convertibles?.length ?? 0,
    evaluations,
    slowestMs,
    warmMs: warm,
    breakpoints: breakpoints.value.length,
    breakpointsMs: breakpoints.ms,
    targetMs: WATERFALL_TARGET_MS,
    breakpointsTargetMs: BREAKPOINTS_TARGET_MS,
    pass: slowestMs < WATERFALL_TARGET_MS && breakpoints.ms < BREAKPOINTS_TARGET_MS,
  };
}

/** The figures as printed, the summary line last. */
export function formatWaterfallBench(r: WaterfallBench): string {
  const lines = r.evaluations.map(
    (e, i) =>
      `  $${e.exitValue}: ${e.ms.toFixed(1)} ms (${e.cpuMs.toFixed(1)} ms CPU)${i === 0 ? ', cold' : ''}, ` +
      `${e.optionsExercised} options exercised`,
  );
  return [
    `waterfall of ${r.holders} holders (${r.holdings} holdings), ${r.options} options, ` +
      `${r.convertibles} convertibles:`,
    ...lines,
    `waterfall: ${r.holders} holders, ${r.options} options: slowest ${r.slowestMs.toFixed(1)} ms, ` +
      `warm ${r.warmMs.toFixed(1)} ms (target ${r.targetMs} ms); ${r.breakpoints} breakpoints in ` +
      `${r.breakpointsMs.toFixed(1)} ms (target ${r.breakpointsTargetMs} ms): ${r.pass ? 'PASS' : 'FAIL'}`,
  ].join('\n');
}

if (require.main === module) {
  const result = benchWaterfall();
  console.log(formatWaterfallBench(result));
  if (!result.pass) process.exitCode = 1;
}
