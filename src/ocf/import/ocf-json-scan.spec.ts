import { scanJson } from './ocf-json-scan';

const scan = (json: string, maxEntries = 1000, maxValues = 100) =>
  scanJson(Buffer.from(json), maxEntries, maxValues);
const entries = (json: string) => {
  const result = scan(json);
  return result.ok ? result.entries : result;
};

describe('scanJson', () => {
  it('counts the entries of the top-level object’s arrays, of any kind', () => {
    expect(entries('{"file_type":"X","items":[]}')).toBe(0);
    expect(entries('{"file_type":"X","items":[{}]}')).toBe(1);
    expect(entries('{"items":[{"a":[1,2,3],"b":{"c":[4]}},{},"s",3,null,true,[5,6]]}')).toBe(7);
    expect(entries('{"a":[1,2],"b":[3],"c":{"d":[4,5,6]}}')).toBe(3);
    expect(entries(' \n{ "items" : [ { } ,\n { } ] }\n')).toBe(2);
  });

  it('counts a top-level array’s entries', () => {
    expect(entries('[{},{},{}]')).toBe(3);
    expect(entries('[]')).toBe(0);
  });

  it('is not misled by brackets, commas, colons and quotes inside strings', () => {
    expect(entries('{"items":["a,b","[{,}]","q\\"uote,\\\\",{"x":"]}:"}]}')).toBe(4);
    expect(entries('{"items":[{"name":"Zoë, «café» [1]"}]}')).toBe(1);
  });

  it('stops once past the entries allowed, naming the list', () => {
    const big = `{"items":[${'{},'.repeat(1_000_000)}{}]}`;
    expect(scanJson(Buffer.from(big), 10)).toEqual({
      ok: false,
      path: '/items',
      reason: 'holds more than 10 objects: not read',
    });
    expect(scanJson(Buffer.from(big), 2_000_000)).toEqual({ ok: true, entries: 1_000_001 });
    expect(scan('[1,2,3]', 2)).toEqual({
      ok: false,
      path: '',
      reason: 'holds more than 2 objects: not read',
    });
  });

  it('stops at an entry of more values than allowed (keys, values and containers at any depth)', () => {
    // {"a":1,"b":[2,3]}: the object, 2 keys, 1, the array, 2 and 3: 7 values.
    expect(scan('{"items":[{"a":1,"b":[2,3]}]}', 10, 7)).toEqual({ ok: true, entries: 1 });
    expect(scan('{"items":[{},{"a":1,"b":[2,3]}]}', 10, 6)).toEqual({
      ok: false,
      path: '/items/1',
      reason: 'holds more than 6 JSON values: not read',
    });
    const nested = `{"items":[{"comments":[${'{},'.repeat(500)}{}]}]}`;
    expect(scan(nested)).toMatchObject({ ok: false, path: '/items/0' });
    const keys = `{"items":[{${Array.from({ length: 60 }, (_, i) => `"k${i}":${i}`).join(',')}}]}`;
    expect(scan(keys)).toMatchObject({ ok: false, path: '/items/0' });
  });

  it('stops at a top-level object of more values outside its lists than allowed', () => {
    const members = Array.from({ length: 60 }, (_, i) => `"k${i}":true`).join(',');
    expect(scan(`{"items":[],${members}}`)).toEqual({
      ok: false,
      path: '',
      reason: 'holds more than 100 JSON values outside its lists: not read',
    });
  });
});
