import { Readable } from 'node:stream';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, AccessContext, Permission } from '../../common';
import { binaryContent, DOWNLOAD_HEADERS, sendStoredFile } from '../files/file-download';
import { StoredFile } from '../files/stored-file.entity';
import { CertificatesService, GeneratedPdf } from './certificates.service';

const PDF = {
  description:
    'The PDF (`Content-Type: application/pdf`), as an attachment named after the certificate ' +
    '(RFC 6266/5987 `Content-Disposition`), with `X-Content-Type-Options: nosniff` and ' +
    '`Cache-Control: private, no-store`',
  headers: DOWNLOAD_HEADERS,
  content: binaryContent('application/pdf'),
};

const SHARE_CERTIFICATE =
  'Drawn from the cap table as it is now: the organization’s legal name (its name when none), ' +
  'certificate number, holder, class name and type, par value when the class has one, quantity in ' +
  'words and figures (an LLC’s in units; a fraction as "and 5/10"), issue date, the full text of ' +
  'the holding’s legends and two signature lines; text that does not fit continues on more pages. ' +
  'A voided holding is marked VOID across every page; one transferred in full is marked CANCELLED ' +
  '(TRANSFERRED) and shows the quantity it held until then. Characters the PDF standard fonts ' +
  'cannot show (CJK, for one) are printed as "?", accented letters they lack without the accent. ' +
  'Requires `canViewHolding` (spec 4.4), which the holding’s own holder has too: a Shareholder ' +
  'reads their own certificates only.';

/** Sends a generated PDF with the headers of every download (the file helpers' own). */
function sendPdf(res: Response, pdf: GeneratedPdf) {
  const file = Object.assign(new StoredFile(), {
    name: pdf.name,
    size: pdf.bytes.byteLength,
    contentType: 'application/pdf',
  });
  const bytes = Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset, pdf.bytes.byteLength);
  sendStoredFile(res, file, Readable.from([bytes]), 'attachment');
}

@ApiTags('documents')
@Controller('v1/shareholding/:holding/certificate')
export class ShareCertificateController {
  constructor(private readonly certificates: CertificatesService) {}

  @Get()
  @Permission('canViewHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary: 'The share certificate of a shareholding, as PDF (`<certificateNumber>.pdf`)',
    description: SHARE_CERTIFICATE,
  })
  @ApiOkResponse(PDF)
  async original(@Param('holding') id: string, @Res() res: Response) {
    sendPdf(res, await this.certificates.shareCertificate(id, false));
  }

  @Get('copy')
  @Permission('canViewHolding', { record: 'shareholding', param: 'holding' })
  @ApiOperation({
    summary:
      'A copy of the share certificate, marked COPY on every page (`<certificateNumber>-copy.pdf`)',
    description: `The certificate with COPY across and in the footer of every page. ${SHARE_CERTIFICATE}`,
  })
  @ApiOkResponse(PDF)
  async copy(@Param('holding') id: string, @Res() res: Response) {
    sendPdf(res, await this.certificates.shareCertificate(id, true));
  }
}

@ApiTags('documents')
@Controller('v1/organization/:organization/legend/:legend/certificate')
export class LegendCertificateController {
  constructor(private readonly certificates: CertificatesService) {}

  @Get()
  @Permission('canViewCapTable', { record: 'legend', param: 'legend' })
  @ApiOperation({
    summary: 'A legend certificate, as PDF (`Legend <name>.pdf`)',
    description:
      'The organization’s legal name, the legend’s name and its full text, on as many pages as it ' +
      'takes. Requires `canViewCapTable` (spec 4.4), as reading the legend does. A deleted legend, ' +
      'or one of another organization, is 404.',
  })
  @ApiOkResponse(PDF)
  async legend(@Access() access: AccessContext, @Param('legend') id: string, @Res() res: Response) {
    sendPdf(res, await this.certificates.legendCertificate(access.organizationId!, id));
  }
}
