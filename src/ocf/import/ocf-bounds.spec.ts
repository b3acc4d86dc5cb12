import {
  coherentPackage,
  IDS,
  PackageFiles,
  withManifest,
} from '../../../test/fixtures/ocf/ocf-packages';
import { planImport } from './ocf-mapping';
import { readPackage } from './ocf-package';

type Item = Record<string, unknown>;

let n = 0;
const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function outcome(files: PackageFiles) {
  const read = readPackage(new Map(Object.entries(withManifest(files))));
  if ('problems' in read) throw new Error(JSON.stringify(read.problems));
  return planImport(read.package, {
    membersByEmail: new Map(),
    currency: 'USD',
    fractional: false,
    today: '2026-12-01',
    newId,
  });
}

const withItems = (name: string, change: (items: Item[]) => Item[]): PackageFiles => {
  const files = coherentPackage();
  const file = files[name] as { items: Item[] };
  return { ...files, [name]: { ...file, items: change(file.items) } };
};

/** A second copy of the package's schedule, described exactly by the export's `schedule` note. */
const exactSchedule = (fields: Item) =>
  withItems('VestingTerms.ocf.json', (items) => [
    ...items,
    {
      ...items.find((v) => v.id === IDS.schedule)!,
      id: 'exact',
      comments: [
        `ledgerline:schedule=${JSON.stringify({
          totalPeriods: 48,
          periodLength: 1,
          periodType: 'months',
          cliffPeriods: 12,
          vestingDayOfMonth: null,
          ...fields,
        })}`,
      ],
    },
  ]);

describe('OCF import: the bounds of the API hold for imported schedules and legends', () => {
  it.each([
    ['months', 600],
    ['years', 50],
    ['days', 3650],
  ])(
    'takes %s schedules of up to %i periods described by the export’s note, not one more',
    (periodType, max) => {
      const ok = outcome(exactSchedule({ periodType, totalPeriods: max, cliffPeriods: 0 }));
      expect('plan' in ok && ok.plan.counts.vestingTerms).toBe(2);
      expect(
        outcome(exactSchedule({ periodType, totalPeriods: max + 1, cliffPeriods: 0 })),
      ).toEqual({
        problems: [
          {
            file: 'VestingTerms.ocf.json',
            path: '/items/2/vesting_conditions',
            reason: `totalPeriods must be at most ${max} for ${periodType} periods (got ${max + 1})`,
          },
        ],
      });
    },
  );

  it('takes a legend text of 20,000 characters, not one more', () => {
    const legend = (text: string) =>
      withItems('StockLegends.ocf.json', (items) =>
        items.map((l) => (l.id === IDS.legend ? { ...l, text } : l)),
      );
    const ok = outcome(legend('t'.repeat(20_000)));
    expect('plan' in ok && ok.plan.counts.stockLegendTemplates).toBe(1);
    expect(outcome(legend('t'.repeat(20_001)))).toEqual({
      problems: [
        {
          file: 'StockLegends.ocf.json',
          path: '/items/0/text',
          reason: 'the legend text has 20001 characters, more than 20000',
        },
      ],
    });
  });
});
