import { D } from '../decimal';
import { CapMathError } from '../errors';
import { allocateTranches } from './allocation';
import { AllocationType } from './schedule';

const split = (quantity: string, tranches: number, type: AllocationType) =>
  allocateTranches(new D(quantity), tranches, type).map((a) => a.toFixed());

describe('allocateTranches: the OCF example of 18 shares over 4 tranches', () => {
  it.each<[AllocationType, string[]]>([
    ['CUMULATIVE_ROUNDING', ['5', '4', '5', '4']],
    ['CUMULATIVE_ROUND_DOWN', ['4', '5', '4', '5']],
    ['FRONT_LOADED', ['5', '5', '4', '4']],
    ['BACK_LOADED', ['4', '4', '5', '5']],
    ['FRONT_LOADED_TO_SINGLE_TRANCHE', ['6', '4', '4', '4']],
    ['BACK_LOADED_TO_SINGLE_TRANCHE', ['4', '4', '4', '6']],
    ['FRACTIONAL', ['4.5', '4.5', '4.5', '4.5']],
  ])('%s gives %j', (type, expected) => {
    expect(split('18', 4, type)).toEqual(expected);
  });
});

describe('allocateTranches', () => {
  it('rounds cumulative amounts half up, or down', () => {
    // Cumulative 2.5, 5, 7.5, 10.
    expect(split('10', 4, 'CUMULATIVE_ROUNDING')).toEqual(['3', '2', '3', '2']);
    expect(split('10', 4, 'CUMULATIVE_ROUND_DOWN')).toEqual(['2', '3', '2', '3']);
  });

  it('divides evenly when it can', () => {
    expect(new Set(split('4800', 48, 'CUMULATIVE_ROUNDING'))).toEqual(new Set(['100']));
  });

  it('places a remainder smaller than the tranche count', () => {
    expect(split('3', 4, 'FRONT_LOADED')).toEqual(['1', '1', '1', '0']);
    expect(split('3', 4, 'BACK_LOADED')).toEqual(['0', '1', '1', '1']);
    expect(split('3', 4, 'FRONT_LOADED_TO_SINGLE_TRANCHE')).toEqual(['3', '0', '0', '0']);
    expect(split('0', 3, 'CUMULATIVE_ROUNDING')).toEqual(['0', '0', '0']);
  });

  it('rounds fractional tranches to 10 places and lets the last absorb the difference', () => {
    expect(split('100', 3, 'FRACTIONAL')).toEqual([
      '33.3333333333',
      '33.3333333334',
      '33.3333333333',
    ]);
    expect(split('7.25', 2, 'FRACTIONAL')).toEqual(['3.625', '3.625']);
  });

  it('gives one tranche everything', () => {
    expect(split('17', 1, 'BACK_LOADED')).toEqual(['17']);
  });

  it('refuses fractional quantities for whole-share types and bad counts', () => {
    expect(() => split('18.5', 4, 'CUMULATIVE_ROUNDING')).toThrow(CapMathError);
    expect(() => split('18', 0, 'FRACTIONAL')).toThrow(CapMathError);
    expect(() => split('-18', 4, 'FRACTIONAL')).toThrow(CapMathError);
    expect(() => split('18', 4, 'EVENLY' as AllocationType)).toThrow(CapMathError);
  });
});
