import { DomainError } from '../../common';
import { field, parseForm } from './webhook-form';

/** A property of every object, if some parse wrote one through a prototype. */
const leaked = () => ({}) as Record<string, unknown>;

describe('parseForm', () => {
  afterEach(() => {
    // A failing run must not leave the rest of the process polluted.
    for (const name of ['polluted', 'x']) {
      delete (Object.prototype as Record<string, unknown>)[name];
      delete (Function.prototype as unknown as Record<string, unknown>)[name];
    }
  });

  it('nests bracketed keys into objects without a prototype', () => {
    const form = parseForm('id=1&event=payment_success&payload[subscription][id]=42');
    expect(field(form, 'id')).toBe('1');
    expect(field(form, 'payload', 'subscription', 'id')).toBe('42');
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(Object.getPrototypeOf(form.payload)).toBeNull();
    // Names every object inherits are no fields of the form.
    expect(field(form, 'payload', 'toString')).toBeUndefined();
    expect(field(form, 'constructor')).toBeUndefined();
  });

  it.each([
    'payload[__proto__][polluted]=yes',
    '__proto__[polluted]=yes',
    'payload[subscription][__proto__][polluted]=yes',
    'payload[constructor][prototype][polluted]=yes',
    'constructor[prototype][polluted]=yes',
    'payload[prototype][polluted]=yes',
    'payload[__proto__]=yes',
    'payload%5B__proto__%5D%5Bpolluted%5D=yes',
  ])('refuses %s (400) and leaves Object.prototype untouched', (raw) => {
    let thrown: unknown;
    try {
      parseForm(`id=1&event=payment_success&${raw}`);
    } catch (err) {
      thrown = err;
    }
    expect(leaked().polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).status).toBe(400);
  });
});
