/**
 * Projects 10,000 grants (mostly the standard 48-month / 12-month-cliff schedule, plus
 * quarterly, yearly, daily and fractional ones) and checks the time against a 1 s budget.
 * Run: npx ts-node --transpile-only libs/cap-math/bench/vesting-projection.ts
 * Not a jest test: timings on shared CI machines are too noisy to gate a build on.
 */
import { addDays } from '../dates';
import { projectVesting, STANDARD_VESTING_SCHEDULE, VestingSchedule } from '../vesting';

const GRANTS = 10_000;
const BUDGET_MS = 1_000;

const standard = STANDARD_VESTING_SCHEDULE;

const others: VestingSchedule[] = [
  {
    ...standard,
    totalPeriods: 16,
    periodLength: 3,
    cliffPeriods: 4,
    allocationType: 'FRONT_LOADED',
  },
  {
    ...standard,
    totalPeriods: 4,
    periodType: 'years',
    cliffPeriods: 1,
    allocationType: 'BACK_LOADED',
  },
  {
    ...standard,
    vestingDayOfMonth: '31_OR_LAST_DAY_OF_MONTH',
    allocationType: 'CUMULATIVE_ROUND_DOWN',
  },
  { ...standard, totalPeriods: 36, cliffPeriods: 0, allocationType: 'FRACTIONAL' },
  { ...standard, totalPeriods: 365, periodType: 'days', cliffPeriods: 90 },
  { ...standard, acceleration: { trigger: 'single', percent: '50' } },
];

// A small deterministic generator, so every run projects the same grants.
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

const grants = Array.from({ length: GRANTS }, (_, i) => {
  const schedule = i % 5 === 0 ? others[i % others.length] : standard;
  return {
    schedule,
    quantity: String(1 + Math.floor(random() * 1_000_000)),
    vestingStartDate: addDays('2015-01-01', Math.floor(random() * 3650)),
    changeOfControlDate: schedule.acceleration ? '2024-06-30' : undefined,
  };
});

const started = process.hrtime.bigint();
let events = 0;
for (const grant of grants) {
  events += projectVesting(grant).events.length;
}
const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;

const verdict = elapsedMs <= BUDGET_MS ? 'PASS' : 'FAIL';
console.log(
  `${GRANTS} grants, ${events} vesting events projected in ${elapsedMs.toFixed(1)} ms ` +
    `(target ${BUDGET_MS} ms): ${verdict}`,
);
if (verdict === 'FAIL') {
  process.exitCode = 1;
}
