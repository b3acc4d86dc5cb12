/**
 * Text a PDF standard font can draw. The 14 standard fonts are WinAnsi-encoded (Latin-1 and a few
 * typographic characters); pdf-lib throws on anything else, and no Unicode font ships with the
 * service (embedding one would need fontkit and a font file per script). So every character the
 * font has is kept ("Zoë Ødegård"), a letter it lacks loses its accents when the bare letter is
 * one it has ("Łódź" → "?ódz": "ź" → "z", "Ł" has no bare form), and anything else, a CJK
 * character among them, becomes "?". Whitespace is folded to spaces, line breaks kept.
 */
export function printableText(text: string, characterSet: ReadonlySet<number>): string {
  let out = '';
  for (const char of text.normalize('NFC').replace(/\r\n?/g, '\n')) {
    if (char === '\n') out += char;
    else if (/\s/u.test(char)) out += ' ';
    else if (/\p{Cc}|\p{Cf}/u.test(char)) continue;
    else out += printable(char, characterSet);
  }
  return out;
}

function printable(char: string, characterSet: ReadonlySet<number>): string {
  if (characterSet.has(char.codePointAt(0)!)) return char;
  // Without its combining marks, a letter the font lacks may be one it has ("ő" → "o").
  const base = [...char.normalize('NFD')].filter((c) => !/\p{M}/u.test(c)).join('');
  const fits = base && [...base].every((c) => characterSet.has(c.codePointAt(0)!));
  return fits ? base : '?';
}
