import { degrees, PDFDocument, PDFFont, PDFPage, rgb, RGB, StandardFonts } from 'pdf-lib';
import { printableText } from './printable-text';

type FontName = 'regular' | 'bold' | 'italic';

export interface TextStyle {
  font?: FontName;
  size?: number;
  align?: 'left' | 'center';
  /** Space after the block, in points. */
  after?: number;
}

/** A word across every page: the status of a certificate (VOID) or that it is a COPY. */
export interface Mark {
  text: string;
  tone: 'alert' | 'muted';
}

const PAGE = { width: 612, height: 792 }; // US Letter, portrait
const MARGIN = 64;
const FOOTER_SIZE = 8;
const LINE_SPACING = 1.35;
const TONES: Record<Mark['tone'], RGB> = {
  alert: rgb(0.8, 0.1, 0.1),
  muted: rgb(0.45, 0.45, 0.45),
};

/**
 * A small flowing layout over pdf-lib: blocks of text wrapped to the page width, continued on a
 * new page when they do not fit, signature lines kept together, marks drawn across every page
 * and a footer with page numbers. Every string goes through `printableText`, so a character the
 * standard fonts cannot encode never fails a document.
 */
export class PdfComposer {
  private page!: PDFPage;
  private y = 0;
  private readonly marks: Mark[] = [];

  private constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Record<FontName, PDFFont>,
    private readonly characterSets: Record<FontName, ReadonlySet<number>>,
  ) {
    this.newPage();
  }

  static async create(title: string, author: string): Promise<PdfComposer> {
    const doc = await PDFDocument.create();
    const fonts = {
      regular: await doc.embedFont(StandardFonts.TimesRoman),
      bold: await doc.embedFont(StandardFonts.TimesRomanBold),
      italic: await doc.embedFont(StandardFonts.TimesRomanItalic),
    };
    const sets = {
      regular: new Set(fonts.regular.getCharacterSet()),
      bold: new Set(fonts.bold.getCharacterSet()),
      italic: new Set(fonts.italic.getCharacterSet()),
    };
    const composer = new PdfComposer(doc, fonts, sets);
    doc.setTitle(composer.printable(title, 'regular'));
    doc.setAuthor(composer.printable(author, 'regular'));
    doc.setCreator('Ledgerline');
    return composer;
  }

  private get contentWidth() {
    return PAGE.width - 2 * MARGIN;
  }

  /** A block of text, wrapped; `\n` starts a new line. */
  text(text: string, style: TextStyle = {}): this {
    const { font = 'regular', size = 11, align = 'left', after = size * 0.6 } = style;
    const pdfFont = this.fonts[font];
    const lineHeight = size * LINE_SPACING;
    for (const line of this.wrap(this.printable(text, font), pdfFont, size)) {
      this.room(lineHeight);
      const width = pdfFont.widthOfTextAtSize(line, size);
      const x = align === 'center' ? MARGIN + (this.contentWidth - width) / 2 : MARGIN;
      this.page.drawText(line, { x, y: this.y - size, size, font: pdfFont });
      this.y -= lineHeight;
    }
    this.y -= after;
    return this;
  }

  /** A text at the left margin and another at the right (a header); two lines when too wide. */
  row(left: string, right: string, style: TextStyle = {}): this {
    const { font = 'bold', size = 12, after = size } = style;
    const pdfFont = this.fonts[font];
    const [l, r] = [this.printable(left, font), this.printable(right, font)];
    const [lw, rw] = [pdfFont.widthOfTextAtSize(l, size), pdfFont.widthOfTextAtSize(r, size)];
    if (lw + rw + size * 2 > this.contentWidth) {
      return this.text(l, { font, size, after: 0 }).text(r, { font, size, after });
    }
    this.room(size * LINE_SPACING);
    this.page.drawText(l, { x: MARGIN, y: this.y - size, size, font: pdfFont });
    this.page.drawText(r, { x: PAGE.width - MARGIN - rw, y: this.y - size, size, font: pdfFont });
    this.y -= size * LINE_SPACING + after;
    return this;
  }

  /** Signature lines side by side, each with its title below; never split across pages. */
  signatures(titles: string[]): this {
    const height = 64;
    this.room(height);
    const gap = 36;
    const width = (this.contentWidth - gap * (titles.length - 1)) / titles.length;
    const lineY = this.y - 40;
    titles.forEach((title, i) => {
      const x = MARGIN + i * (width + gap);
      this.page.drawLine({
        start: { x, y: lineY },
        end: { x: x + width, y: lineY },
        thickness: 0.8,
      });
      this.page.drawText(this.printable(title, 'regular'), {
        x,
        y: lineY - 14,
        size: 10,
        font: this.fonts.regular,
      });
    });
    this.y -= height;
    return this;
  }

  /** A word drawn large and diagonally across every page (added when saved). */
  mark(mark: Mark): this {
    this.marks.push(mark);
    return this;
  }

  /** The PDF bytes; `footer` is printed on every page before "Page i of n". */
  async save(footer: string): Promise<Uint8Array> {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      this.drawFooter(page, `${footer} · Page ${i + 1} of ${pages.length}`);
      this.marks.forEach((mark, j) => this.drawMark(page, mark, j - (this.marks.length - 1) / 2));
    });
    return this.doc.save();
  }

  private printable(text: string, font: FontName): string {
    return printableText(text, this.characterSets[font]);
  }

  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    const inset = MARGIN / 2;
    this.page.drawRectangle({
      x: inset,
      y: inset,
      width: PAGE.width - 2 * inset,
      height: PAGE.height - 2 * inset,
      borderWidth: 1.5,
      borderColor: rgb(0.2, 0.2, 0.35),
    });
    this.y = PAGE.height - MARGIN;
  }

  /** Starts a new page unless `height` points are left above the footer. */
  private room(height: number) {
    if (this.y - height < MARGIN + FOOTER_SIZE * 2) this.newPage();
  }

  /** Lines no wider than the content: at spaces, or inside a word longer than a line. */
  private wrap(text: string, font: PDFFont, size: number): string[] {
    const fits = (s: string) => font.widthOfTextAtSize(s, size) <= this.contentWidth;
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(' ').filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (fits(candidate)) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = '';
        for (const char of word) {
          if (line && !fits(line + char)) {
            lines.push(line);
            line = '';
          }
          line += char;
        }
      }
      lines.push(line);
    }
    return lines;
  }

  private drawFooter(page: PDFPage, text: string) {
    const font = this.fonts.italic;
    const line = this.printable(text, 'italic');
    const width = font.widthOfTextAtSize(line, FOOTER_SIZE);
    page.drawText(line, {
      x: (PAGE.width - width) / 2,
      y: MARGIN - FOOTER_SIZE,
      size: FOOTER_SIZE,
      font,
    });
  }

  /** Centred on the page's diagonal; `offset` (in lines) moves it across, when there are several. */
  private drawMark(page: PDFPage, mark: Mark, offset: number) {
    const font = this.fonts.bold;
    const text = this.printable(mark.text, 'bold');
    const angle = Math.atan2(PAGE.height, PAGE.width);
    const diagonal = Math.hypot(PAGE.width, PAGE.height) * 0.7;
    const size = Math.min(140, diagonal / font.widthOfTextAtSize(text, 1));
    const width = font.widthOfTextAtSize(text, size);
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    // From the centre, back half the text along the diagonal, then across it by the offset.
    const across = offset * size * 1.1 - size * 0.35;
    page.drawText(text, {
      x: PAGE.width / 2 - (width / 2) * cos - across * sin,
      y: PAGE.height / 2 - (width / 2) * sin + across * cos,
      size,
      font,
      color: TONES[mark.tone],
      opacity: 0.3,
      rotate: degrees((angle * 180) / Math.PI),
    });
  }
}
