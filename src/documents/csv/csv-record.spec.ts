import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { csvRecord, RECORD_DELIMITER } from './csv-columns';

/** A deterministic generator, so a failure names a case that can be run again. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const PIECES = ['a', 'Z', '0', ' ', ',', '"', '\r\n', ';', "'", '=', '-', 'é', '€', '\t', '💼'];
/** With line ends of their own, which csv-stringify 6 leaves unquoted (see below). */
const ANY_PIECES = [...PIECES, '\r', '\n'];

function cell(next: () => number, pieces = PIECES): string {
  const length = Math.floor(next() * 8);
  let text = '';
  for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
  return text;
}

describe('csvRecord', () => {
  const reference = (records: string[][]) =>
    stringify(records, { record_delimiter: RECORD_DELIMITER });

  it('writes what csv-stringify writes, byte for byte, on random cells', () => {
    const next = random(20261126);
    for (let n = 0; n < 2000; n++) {
      const records = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
        Array.from({ length: 1 + Math.floor(next() * 10) }, () => cell(next)),
      );
      expect(records.map(csvRecord).join('')).toBe(reference(records));
    }
  });

  it('quotes only cells with a quote, a comma or a line break, doubling the quotes', () => {
    expect(csvRecord(['plain', '', 'a b', "'=1"])).toBe(`plain,,a b,'=1\r\n`);
    expect(csvRecord(['a,b', 'say "hi"', 'two\nlines', 'cr\r'])).toBe(
      '"a,b","say ""hi""","two\nlines","cr\r"\r\n',
    );
  });

  it('quotes a lone line feed or carriage return, which csv-stringify 6 does not', () => {
    // csv-stringify with CRLF records writes `two\nlines` bare, and a reader ends the record there.
    expect(reference([['two\nlines', 'x']])).toBe('two\nlines,x\r\n');
    expect(parse(reference([['two\nlines', 'x']]), { relax_column_count: true })).not.toEqual([
      ['two\nlines', 'x'],
    ]);
    expect(parse(csvRecord(['two\nlines', 'x']))).toEqual([['two\nlines', 'x']]);
  });

  it('reads back with csv-parse as the cells it was given', () => {
    const next = random(42);
    const records = Array.from({ length: 200 }, () =>
      Array.from({ length: 10 }, () => cell(next, ANY_PIECES)),
    );
    expect(parse(records.map(csvRecord).join(''))).toEqual(records);
  });
});
