import type { CertificateFacts } from '../../cap-table';
import { PdfComposer } from './pdf-composer';

/** What a legend certificate shows, as the cap table tells it. */
export type LegendCertificateFacts = NonNullable<Awaited<ReturnType<CertificateFacts['legend']>>>;

/**
 * A legend certificate: the organization's legal name, the legend's name and its full text (on
 * as many pages as it takes), for attaching to or printing on the back of share certificates.
 */
export async function legendCertificatePdf(facts: LegendCertificateFacts): Promise<Uint8Array> {
  const pdf = await PdfComposer.create(`Legend: ${facts.name}`, facts.organizationName);
  pdf
    .text(facts.organizationName, { font: 'bold', size: 20, align: 'center', after: 8 })
    .text('LEGEND', { font: 'bold', size: 15, align: 'center', after: 4 })
    .text(facts.name, { font: 'bold', size: 13, align: 'center', after: 18 })
    .text(facts.text, { size: 11 });
  return pdf.save(`Legend: ${facts.name}`);
}
