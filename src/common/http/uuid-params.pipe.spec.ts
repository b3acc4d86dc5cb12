import { UuidParamsPipe } from './uuid-params.pipe';

const pipe = new UuidParamsPipe();
const param = (data: string) => ({ type: 'param' as const, data });
const hex = 'a'.repeat(16) + '0123456789abcdef';

describe('UuidParamsPipe', () => {
  it('passes a UUID, and refuses anything else for a record id', () => {
    const id = '6f1c2a8e-0b1d-4c3e-9f5a-1b2c3d4e5f60';
    expect(pipe.transform(id, param('member'))).toBe(id);
    expect(() => pipe.transform(`evt_${hex}`, param('member'))).toThrow('member must be a UUID');
  });

  it('checks event and webhook ids by their own format', () => {
    expect(pipe.transform(`evt_${hex}`, param('event'))).toBe(`evt_${hex}`);
    expect(pipe.transform(`wh_${hex}`, param('webhook'))).toBe(`wh_${hex}`);
    for (const bad of [`wh_${hex}`, `evt_${hex}0`, `evt_${hex.toUpperCase()}`, 'evt_', hex]) {
      expect(() => pipe.transform(bad, param('event'))).toThrow(
        'event must be `evt_` + 32 hex characters',
      );
    }
    for (const bad of [
      `evt_${hex}`,
      `wh_${hex.slice(1)}`,
      '6f1c2a8e-0b1d-4c3e-9f5a-1b2c3d4e5f60',
    ]) {
      expect(() => pipe.transform(bad, param('webhook'))).toThrow(
        'webhook must be `wh_` + 32 hex characters',
      );
    }
  });

  it('leaves free-string parameters and other arguments alone', () => {
    expect(pipe.transform('doc.pdf', param('name'))).toBe('doc.pdf');
    expect(pipe.transform('x', { type: 'query', data: 'event' })).toBe('x');
  });
});
