import { type CertificateFacts, SHAREHOLDING_ENDINGS } from '../../cap-table';
import { Mark, PdfComposer } from './pdf-composer';
import { numberInFigures, quantityInWords, unitsOf } from './quantity-words';

/** What a share certificate shows, as the cap table tells it. */
export type ShareCertificateFacts = NonNullable<
  Awaited<ReturnType<CertificateFacts['shareholding']>>
>;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2024-01-15` → `January 15, 2024` (the date as stored, no time zone involved). */
export function longDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}

/**
 * What crosses a certificate that no longer stands for shares, and what it says became of them:
 * as the transaction that ended its shareholding defines it.
 */
const statusMark = (status: ShareCertificateFacts['status']): Mark | null => {
  const ending = SHAREHOLDING_ENDINGS.get(status);
  return ending ? { text: ending.certificateMark, tone: 'alert' } : null;
};

const statusNote = (status: ShareCertificateFacts['status']): string | null =>
  SHAREHOLDING_ENDINGS.get(status)?.certificateNote ?? null;

export const COPY_MARK: Mark = { text: 'COPY', tone: 'muted' };

/**
 * A share certificate: the organization's legal name, certificate number, holder, class name and
 * type, par value (when the class has one), quantity in words and figures, issue date, the full
 * text of its legends and two signature lines. An LLC's certificate speaks of units and is signed
 * by its Manager; a corporation's by its President and Secretary. A voided or transferred holding
 * is marked across every page; so is a copy.
 */
export async function shareCertificatePdf(
  facts: ShareCertificateFacts,
  copy: boolean,
): Promise<Uint8Array> {
  const llc = facts.organizationType === 'llc';
  const unit = llc ? 'unit' : 'share';
  const company = facts.organizationType === 'corporation' ? 'Corporation' : 'Company';
  const pdf = await PdfComposer.create(
    `${copy ? 'Copy of certificate' : 'Certificate'} ${facts.certificateNumber}`,
    facts.organizationName,
  );
  pdf
    .row(
      `Certificate No. ${facts.certificateNumber}`,
      `${numberInFigures(facts.quantity)} ${unitsOf(facts.quantity, unit)}`,
      { after: 24 },
    )
    .text(facts.organizationName, { font: 'bold', size: 22, align: 'center', after: 10 })
    .text(llc ? 'UNIT CERTIFICATE' : 'SHARE CERTIFICATE', {
      font: 'bold',
      size: 16,
      align: 'center',
      after: 6,
    })
    .text(
      `Class: ${facts.className} (${facts.classType === 'preferred' ? 'Preferred' : 'Common'})`,
      {
        size: 13,
        align: 'center',
        after: 2,
      },
    );
  if (facts.parValue !== null) {
    pdf.text(`Par value ${facts.parValue} ${facts.currency} per ${unit}`, {
      font: 'italic',
      align: 'center',
    });
  }
  pdf
    .text(
      `This certifies that ${facts.holderName} is the registered holder of ` +
        `${quantityInWords(facts.quantity, unit)} of the ${facts.className} of ` +
        `${facts.organizationName}, transferable only on the books of the ${company} by the ` +
        `holder in person or by a duly authorized attorney, upon surrender of this certificate ` +
        'properly endorsed.',
      { size: 12, after: 12 },
    )
    .text(`Issue date: ${longDate(facts.issueDate)}`, { size: 12, after: 12 });
  const note = statusNote(facts.status);
  if (note) pdf.text(note, { font: 'bold', size: 12, after: 12 });
  if (facts.legends.length) {
    pdf.text('Legends', { font: 'bold', size: 13, after: 4 });
    for (const legend of facts.legends) {
      pdf.text(legend.name, { font: 'bold', size: 10, after: 2 });
      pdf.text(legend.text, { size: 10, after: 8 });
    }
  }
  pdf
    .text(
      `In witness whereof, the ${company} has caused this certificate to be signed by its duly ` +
        'authorized officers.',
      { font: 'italic', size: 11, after: 4 },
    )
    .signatures(llc ? ['Manager', 'Authorized Signatory'] : ['President', 'Secretary']);
  const status = statusMark(facts.status);
  if (status) pdf.mark(status);
  if (copy) pdf.mark(COPY_MARK);
  return pdf.save(`${copy ? 'COPY of certificate' : 'Certificate'} No. ${facts.certificateNumber}`);
}
