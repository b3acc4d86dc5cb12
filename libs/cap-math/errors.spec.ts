import { CapMathError } from './errors';

describe('CapMathError', () => {
  it('is an Error with its own name, so callers can map it to a client error', () => {
    const error = new CapMathError('cliffPeriods (49) cannot exceed totalPeriods (48)');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(CapMathError);
    expect(error.name).toBe('CapMathError');
    expect(error.message).toBe('cliffPeriods (49) cannot exceed totalPeriods (48)');
  });
});
