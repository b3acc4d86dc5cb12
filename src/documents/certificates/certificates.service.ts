import { Injectable } from '@nestjs/common';
import { CertificateFacts } from '../../cap-table';
import { DomainError } from '../../common';
import { legendCertificatePdf } from './legend-certificate';
import { shareCertificatePdf } from './share-certificate';

/** A generated document and the file name it is downloaded under. */
export interface GeneratedPdf {
  name: string;
  bytes: Uint8Array;
}

/** Characters a file name should not carry on any system (the name is still RFC 5987 encoded). */
const UNSAFE_IN_FILE_NAMES = /[\\/:*?"<>|\p{Cc}]/gu;

/**
 * Share and legend certificates, drawn on request from the cap table as it is now (nothing is
 * stored: a certificate always shows the current holder, legends and status).
 */
@Injectable()
export class CertificatesService {
  constructor(private readonly facts: CertificateFacts) {}

  /** The guard has decided the caller may read the shareholding (canViewHolding, or theirs). */
  async shareCertificate(holdingId: string, copy: boolean): Promise<GeneratedPdf> {
    const facts = await this.facts.shareholding(holdingId);
    if (!facts) throw DomainError.notFound('no such shareholding');
    const name = `${facts.certificateNumber}${copy ? '-copy' : ''}.pdf`;
    return {
      name: name.replace(UNSAFE_IN_FILE_NAMES, '-'),
      bytes: await shareCertificatePdf(facts, copy),
    };
  }

  async legendCertificate(organizationId: string, legendId: string): Promise<GeneratedPdf> {
    const facts = await this.facts.legend(organizationId, legendId);
    if (!facts) throw DomainError.notFound('no such legend');
    return {
      name: `Legend ${facts.name}.pdf`.replace(UNSAFE_IN_FILE_NAMES, '-'),
      bytes: await legendCertificatePdf(facts),
    };
  }
}
