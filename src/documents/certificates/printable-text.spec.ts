import { PDFDocument, StandardFonts } from 'pdf-lib';
import { printableText } from './printable-text';

describe('printableText', () => {
  let winAnsi: ReadonlySet<number>;
  let draw: (text: string) => void;
  beforeAll(async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.TimesRoman);
    winAnsi = new Set(font.getCharacterSet());
    draw = (text) => doc.addPage().drawText(text, { font });
  });

  it.each([
    ['Zoë Ødegård 李', 'Zoë Ødegård ?'],
    ['Ada Lovelace', 'Ada Lovelace'],
    // Typographic characters of WinAnsi are kept.
    ['“Quoted” — € ™ …', '“Quoted” — € ™ …'],
    // Decomposed input is composed first.
    ['Zoe\u0308', 'Zoë'],
    // A letter the font lacks loses its accents when the bare letter is one it has.
    ['Łódź Ōsaka Dvořák', '?ódz Osaka Dvorák'],
    // One "?" per character, astral ones included.
    ['株式会社 😀', '???? ?'],
    ['Ωmega ✓', '?mega ?'],
    // Whitespace folds to spaces, line breaks are kept, control and format characters go.
    ['a\tb\u00a0c\u2003d', 'a b c d'],
    ['one\r\ntwo\rthree\nfour', 'one\ntwo\nthree\nfour'],
    ['nul\u0000 bell\u0007 zwj\u200d rtl\u202e', 'nul bell zwj rtl'],
  ])('%p → %p', (input, output) => {
    expect(printableText(input, winAnsi)).toBe(output);
  });

  it('gives text the standard fonts can always draw', () => {
    const everything = Array.from({ length: 0x3000 }, (_, i) => String.fromCodePoint(i)).join('');
    const printable = printableText(everything, winAnsi);
    for (const line of printable.split('\n')) expect(() => draw(line)).not.toThrow();
  });
});
