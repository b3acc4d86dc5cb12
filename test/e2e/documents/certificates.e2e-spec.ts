import { execFile } from 'node:child_process';
import type { Agent, Response } from 'supertest';
import { createTestApp, TestApp } from '../../support/app';
import { createHolder, createSecurity, issue } from '../../support/cap-table';
import { errorBody } from '../../support/errors';
import { createOrg, memberAgent } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';

const MISSING = '00000000-0000-4000-8000-00000000abcd';
const LONG_LEGEND = Array.from(
  { length: 150 },
  (_, i) =>
    `Clause ${i + 1}: these shares may not be sold, pledged or transferred without consent.`,
).join(' ');

interface Pdf {
  /** The whole text, whitespace folded to single spaces. */
  text: string;
  /** Each page's text, whitespace folded. */
  pages: string[];
  /** The pages' text without the footer and the marks, joined: the flowing content. */
  body: string;
}

const fold = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * pdf.js (inside pdf-parse) loads its worker with a dynamic `import()`, which jest's module VM
 * refuses: the text is read in a plain Node process, one page a string.
 */
const PAGE_TEXTS = `
  const { PDFParse } = require('pdf-parse');
  const chunks = [];
  process.stdin.on('data', (c) => chunks.push(c)).on('end', async () => {
    const parser = new PDFParse({ data: Buffer.concat(chunks) });
    const result = await parser.getText();
    await parser.destroy();
    process.stdout.write(JSON.stringify(result.pages.map((p) => p.text)));
  });`;

function pageTexts(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-e', PAGE_TEXTS],
      { cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as string[])),
    );
    child.stdin!.end(bytes);
  });
}

/** Reads a PDF's text back as a reader would extract it. */
async function readPdf(bytes: Buffer): Promise<Pdf> {
  const pages = await pageTexts(bytes);
  const content = pages.map((p) =>
    p
      .split('\n')
      .filter((line) => !/Page \d+ of \d+$/.test(line) && !MARKS.has(line.trim()))
      .join('\n'),
  );
  return { text: fold(pages.join('\n')), pages: pages.map(fold), body: fold(content.join('\n')) };
}
const MARKS = new Set(['VOID', 'COPY', 'CANCELLED (TRANSFERRED)']);

/** Collects a binary body (supertest parses only text and JSON). */
const binary = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('certificates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Downloads a PDF (200) and checks the headers every certificate carries. */
  async function download(agent: Agent, url: string, fileName: string) {
    const res: Response = await agent.get(url).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.body as Buffer;
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    return readPdf(body);
  }

  async function legend(agent: Agent, orgId: string, name: string, text: string) {
    const res = await agent.post(`/v1/organization/${orgId}/legend`).send({ name, text });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }

  /** A corporation with a legal name, a class with a par value, two legends and a holder. */
  async function corporation() {
    const owner = await loggedInAgent(t);
    const org = (
      await owner.agent
        .post('/v1/organization')
        .send({ name: 'Acme', legalName: 'Acme Holdings, Inc.' })
        .expect(201)
    ).body as { id: string };
    const security = await createSecurity(owner.agent, org.id, { parValue: '0.0001' });
    const securitiesAct = await legend(
      owner.agent,
      org.id,
      'Securities Act',
      'THE SHARES HAVE NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933.\nThey may not be sold without registration or an exemption.',
    );
    const lockUp = await legend(owner.agent, org.id, 'Lock-up', 'Subject to a 180-day lock-up.');
    const holder = await createHolder(owner.agent, org.id, 'Zoë Ødegård 李');
    return { owner, org, security, legends: [securitiesAct, lockUp], holder };
  }

  describe('GET /v1/shareholding/:holding/certificate', () => {
    it('shows every item of the certificate', async () => {
      const { owner, security, org, legends, holder } = await corporation();
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1250',
        issueDate: '2024-03-05',
        legendIds: legends.map((l) => l.id),
      });
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'CS-1.pdf',
      );
      expect(pdf.pages).toHaveLength(1);
      for (const item of [
        'Acme Holdings, Inc.',
        'SHARE CERTIFICATE',
        'Certificate No. CS-1',
        '1,250 shares',
        // The CJK character cannot be drawn by the standard fonts: a "?" stands in for it.
        'This certifies that Zoë Ødegård ? is the registered holder of',
        'One Thousand Two Hundred Fifty (1,250) shares of the Common Stock of Acme Holdings, Inc.',
        'Class: Common Stock (Common)',
        'Par value 0.0001 USD per share',
        'Issue date: March 5, 2024',
        'Legends Securities Act THE SHARES HAVE NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933. They may not be sold without registration or an exemption.',
        'Lock-up Subject to a 180-day lock-up.',
        'President Secretary',
        'Certificate No. CS-1 · Page 1 of 1',
      ]) {
        expect(pdf.text).toContain(item);
      }
      expect(pdf.text).not.toMatch(/VOID|COPY|CANCELLED/);
      // The legends in the holding's order.
      expect(pdf.text.indexOf('Securities Act')).toBeLessThan(pdf.text.indexOf('Lock-up'));
    });

    it('speaks of units for an LLC, writes fractions, leaves out a missing par value', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent, 'Mesa Ventures LLC');
      await owner.agent.patch(`/v1/organization/${org.id}`).send({ type: 'llc' }).expect(200);
      const security = await createSecurity(owner.agent, org.id, {
        name: 'Class B Units',
        classType: 'preferred',
        idPrefix: 'B-',
      });
      const holder = await createHolder(owner.agent, org.id, 'Ada Lovelace');
      const fractional = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1250.5',
      });
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${fractional.id}/certificate`,
        'B-1.pdf',
      );
      for (const item of [
        'Mesa Ventures LLC',
        'UNIT CERTIFICATE',
        'Certificate No. B-1',
        '1,250.5 units',
        'Class: Class B Units (Preferred)',
        'This certifies that Ada Lovelace is the registered holder of One Thousand Two Hundred Fifty and 5/10 (1,250.5) units of the Class B Units of Mesa Ventures LLC',
        'books of the Company',
        'Issue date: January 15, 2024',
        'Manager Authorized Signatory',
      ]) {
        expect(pdf.text).toContain(item);
      }
      expect(pdf.text).not.toContain('Par value');
      expect(pdf.text).not.toContain('Legends');

      const one = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1',
      });
      const single = await download(
        owner.agent,
        `/v1/shareholding/${one.id}/certificate`,
        'B-2.pdf',
      );
      expect(single.text).toContain('One (1) unit of the Class B Units');
    });

    it('marks a voided holding VOID on every page', async () => {
      const { owner, security, org, holder } = await corporation();
      const long = await legend(owner.agent, org.id, 'Transfer restrictions', LONG_LEGEND);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1000',
        legendIds: [long.id],
      });
      await owner.agent.delete(`/v1/shareholding/${holding.id}`).expect(200);
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'CS-1.pdf',
      );
      expect(pdf.pages.length).toBeGreaterThanOrEqual(2);
      for (const page of pdf.pages) expect(page).toMatch(/\bVOID\b/);
      expect(pdf.text).toContain('One Thousand (1,000) shares');
      expect(pdf.text).toContain('VOID: the shares of this certificate were cancelled');
      expect(pdf.text).not.toContain('COPY');
    });

    it('marks a holding transferred in full CANCELLED (TRANSFERRED), with what it held', async () => {
      const { owner, security, org, holder } = await corporation();
      const other = await createHolder(owner.agent, org.id, 'Bob');
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1250',
      });
      const transfer = (q: string) =>
        owner.agent
          .post(`/v1/organization/${org.id}/shareholding/transfer`)
          .send({ shareholding: holding.id, toMember: other.id, quantity: q, date: '2024-06-01' })
          .expect(201);
      await transfer('250');
      const partial = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'CS-1.pdf',
      );
      expect(partial.text).toContain('One Thousand (1,000) shares');
      expect(partial.text).not.toContain('CANCELLED');

      const last = await transfer('1000');
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'CS-1.pdf',
      );
      expect(pdf.text).toContain('CANCELLED (TRANSFERRED): every share of this certificate');
      expect(pdf.pages[0]).toMatch(/CANCELLED \(TRANSFERRED\)$/);
      expect(pdf.text).toContain('One Thousand (1,000) shares');
      expect(pdf.text).not.toMatch(/VOID|COPY/);

      // The receiving holding's own certificate is an active one.
      const received = await download(
        owner.agent,
        `/v1/shareholding/${last.body.destination.id}/certificate`,
        `${last.body.destination.certificateNumber}.pdf`,
      );
      expect(received.text).toContain('This certifies that Bob is the registered holder of');
      expect(received.text).not.toContain('CANCELLED');
    });

    it('continues long legends on more pages, in full, signature lines at the end', async () => {
      const { owner, security, org, holder } = await corporation();
      const long = await legend(owner.agent, org.id, 'Transfer restrictions', LONG_LEGEND);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '10',
        legendIds: [long.id],
      });
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'CS-1.pdf',
      );
      const count = pdf.pages.length;
      expect(count).toBeGreaterThanOrEqual(2);
      expect(pdf.body).toContain(`Transfer restrictions ${LONG_LEGEND}`);
      pdf.pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${count}`));
      expect(pdf.pages[count - 1]).toContain('President Secretary');
    });

    it('wraps what does not fit: a word longer than a line, a header too wide for one line', async () => {
      const owner = await loggedInAgent(t);
      const org = await createOrg(owner.agent, 'Wide LLC');
      await owner.agent.patch(`/v1/organization/${org.id}`).send({ type: 'llc' }).expect(200);
      // The most digits a holding keeps below the share numbering's limit, fraction included.
      const huge = `${'9'.repeat(27)}.9999999999`;
      const security = await createSecurity(owner.agent, org.id, {
        idPrefix: 'EXTRAORDINARY-CLASS-',
        authorizedShares: huge,
      });
      const holder = await createHolder(owner.agent, org.id, 'Wide Holder');
      const word = 'https://example.test/' + 'x'.repeat(300);
      const link = await legend(owner.agent, org.id, 'Link', `See ${word} for the terms.`);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: huge,
        legendIds: [link.id],
      });
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'EXTRAORDINARY-CLASS-1.pdf',
      );
      const figures = '999,999,999,999,999,999,999,999,999.9999999999';
      // Number and quantity on two lines of the header: together they are wider than the page.
      expect(pdf.text).toContain(
        `Certificate No. EXTRAORDINARY-CLASS-1 ${figures} units Wide LLC UNIT CERTIFICATE`,
      );
      expect(pdf.text).toContain(
        `Nine Hundred Ninety-Nine Septillion Nine Hundred Ninety-Nine Sextillion`,
      );
      expect(pdf.text).toContain(
        `Nine Hundred Ninety-Nine and 9999999999/10000000000 (${figures}) units`,
      );
      // The long word is cut across lines, every character kept.
      expect(pdf.body.replace(/ /g, '')).toContain(`See${word}fortheterms.`);
      expect(pdf.body).not.toContain(word);
    });

    it('prints names no standard font can show without failing', async () => {
      const owner = await loggedInAgent(t);
      const org = (
        await owner.agent
          .post('/v1/organization')
          .send({ name: 'Ünïcode', legalName: '株式会社 Łódź Ōsaka' })
          .expect(201)
      ).body as { id: string };
      const security = await createSecurity(owner.agent, org.id, { name: 'Stock “A” — €' });
      const holder = await createHolder(owner.agent, org.id, 'Émile 😀\u0007 Zoë\tKlein');
      const notice = await legend(owner.agent, org.id, 'Ünicode ✓', 'Ωmega\r\nline two');
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '5',
        legendIds: [notice.id],
      });
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate`,
        'CS-1.pdf',
      );
      expect(pdf.text).toContain('???? ?ódz Osaka SHARE CERTIFICATE');
      expect(pdf.text).toContain('Class: Stock “A” — € (Common)');
      expect(pdf.text).toContain('This certifies that Émile ? Zoë Klein is');
      expect(pdf.text).toContain('Ünicode ? ?mega line two');

      // The file name keeps every character, RFC 5987 encoded (the quoted fallback is the
      // download helper's: its non-ASCII Latin-1 bytes do not survive HTTP clients intact).
      const res = await owner.agent
        .get(`/v1/organization/${org.id}/legend/${notice.id}/certificate`)
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="Legend /);
      expect(res.headers['content-disposition']).toContain(
        `; filename*=UTF-8''Legend%20%C3%9Cnicode%20%E2%9C%93.pdf`,
      );
      expect((await readPdf(res.body)).text).toContain(
        '???? ?ódz Osaka LEGEND Ünicode ? ?mega line two',
      );
    });
  });

  describe('GET /v1/shareholding/:holding/certificate/copy', () => {
    it('marks COPY on every page of the copy', async () => {
      const { owner, security, org, holder } = await corporation();
      const long = await legend(owner.agent, org.id, 'Transfer restrictions', LONG_LEGEND);
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1250',
        legendIds: [long.id],
      });
      const pdf = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate/copy`,
        'CS-1-copy.pdf',
      );
      expect(pdf.pages.length).toBeGreaterThanOrEqual(2);
      pdf.pages.forEach((page, i) => {
        expect(page).toMatch(/\bCOPY$/);
        expect(page).toContain(`COPY of certificate No. CS-1 · Page ${i + 1} of`);
      });
      expect(pdf.text).toContain('One Thousand Two Hundred Fifty (1,250) shares');
      expect(pdf.body).toContain(LONG_LEGEND);
      expect(pdf.text).not.toContain('VOID');

      // A copy of a voided certificate says both.
      await owner.agent.delete(`/v1/shareholding/${holding.id}`).expect(200);
      const voided = await download(
        owner.agent,
        `/v1/shareholding/${holding.id}/certificate/copy`,
        'CS-1-copy.pdf',
      );
      for (const page of voided.pages) expect(page).toMatch(/VOID COPY$/);
    });
  });

  describe('access to share certificates', () => {
    const routes = (id: string) => [
      `/v1/shareholding/${id}/certificate`,
      `/v1/shareholding/${id}/certificate/copy`,
    ];

    it('401 without a session', async () => {
      const { owner, security, org, holder } = await corporation();
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1',
      });
      for (const url of routes(holding.id)) {
        await t.http.get(url).expect(401).expect(errorBody(401));
      }
    });

    it('a Viewer reads any; a Shareholder only their own (403 for another member’s)', async () => {
      const { owner, security, org, holder } = await corporation();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      const theirs = await issue(owner.agent, org.id, {
        member: shareholder.member.id,
        security: security.id,
        quantity: '100',
      });
      const someoneElses = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '200',
      });
      const [own, copy] = routes(theirs.id);
      const mine = await download(shareholder.agent, own, 'CS-1.pdf');
      expect(mine.text).toContain('One Hundred (100) shares');
      await download(shareholder.agent, copy, 'CS-1-copy.pdf');
      for (const url of routes(someoneElses.id)) {
        await shareholder.agent.get(url).expect(403).expect(errorBody(403));
      }
      const [other, otherCopy] = routes(someoneElses.id);
      const seen = await download(viewer.agent, other, 'CS-2.pdf');
      expect(seen.text).toContain('Two Hundred (200) shares');
      await download(viewer.agent, otherCopy, 'CS-2-copy.pdf');
    });

    it('another organization’s member: 403; unknown or malformed ids: 404 and 400', async () => {
      const { owner, security, org, holder } = await corporation();
      const holding = await issue(owner.agent, org.id, {
        member: holder.id,
        security: security.id,
        quantity: '1',
      });
      const outsider = await loggedInAgent(t);
      await createOrg(outsider.agent, 'Other Co');
      for (const url of routes(holding.id)) {
        await outsider.agent.get(url).expect(403).expect(errorBody(403));
      }
      for (const url of routes(MISSING)) {
        await owner.agent.get(url).expect(404).expect(errorBody(404));
      }
      for (const url of routes('not-a-uuid')) {
        await owner.agent.get(url).expect(400);
      }
      await owner.agent.get(`${routes(holding.id)[0]}?inline=true`).expect(400);
    });
  });

  describe('GET /v1/organization/:organization/legend/:legend/certificate', () => {
    it('a page with the legend’s name and full text', async () => {
      const { owner, org, legends } = await corporation();
      const url = `/v1/organization/${org.id}/legend/${legends[0].id}/certificate`;
      const pdf = await download(owner.agent, url, 'Legend Securities Act.pdf');
      expect(pdf.pages).toHaveLength(1);
      expect(pdf.text).toContain(
        'Acme Holdings, Inc. LEGEND Securities Act THE SHARES HAVE NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933. They may not be sold without registration or an exemption.',
      );
      expect(pdf.text).toContain('Legend: Securities Act · Page 1 of 1');
    });

    it('runs a long legend onto more pages; a file name without path characters', async () => {
      const { owner, org } = await corporation();
      const long = await legend(owner.agent, org.id, 'Rule 144/Lock-up: "A"', LONG_LEGEND);
      const pdf = await download(
        owner.agent,
        `/v1/organization/${org.id}/legend/${long.id}/certificate`,
        'Legend Rule 144-Lock-up- -A-.pdf',
      );
      expect(pdf.pages.length).toBeGreaterThanOrEqual(2);
      expect(pdf.body).toContain(`Rule 144/Lock-up: "A" ${LONG_LEGEND}`);
    });

    it('401; 403 without canViewCapTable; a Viewer reads it', async () => {
      const { owner, org, legends } = await corporation();
      const url = `/v1/organization/${org.id}/legend/${legends[1].id}/certificate`;
      await t.http.get(url).expect(401).expect(errorBody(401));
      const shareholder = await memberAgent(t, owner.agent, org.id, 'Shareholder');
      await shareholder.agent.get(url).expect(403).expect(errorBody(403));
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const pdf = await download(viewer.agent, url, 'Legend Lock-up.pdf');
      expect(pdf.text).toContain('Lock-up Subject to a 180-day lock-up.');
    });

    it('another organization’s legend or path: 404 or 403; unknown and deleted legends: 404', async () => {
      const a = await corporation();
      const b = await corporation();
      const legendOfB = b.legends[0].id;
      // B's legend under A's path, by A's owner: not there.
      await a.owner.agent
        .get(`/v1/organization/${a.org.id}/legend/${legendOfB}/certificate`)
        .expect(404)
        .expect(errorBody(404));
      // B's legend under B's path, by A's owner: not a member.
      await a.owner.agent
        .get(`/v1/organization/${b.org.id}/legend/${legendOfB}/certificate`)
        .expect(403)
        .expect(errorBody(403));
      await a.owner.agent
        .get(`/v1/organization/${a.org.id}/legend/${MISSING}/certificate`)
        .expect(404)
        .expect(errorBody(404));
      await a.owner.agent
        .get(`/v1/organization/${a.org.id}/legend/not-a-uuid/certificate`)
        .expect(400);
      const gone = await legend(a.owner.agent, a.org.id, 'Old', 'Old text');
      await a.owner.agent.delete(`/v1/organization/${a.org.id}/legend/${gone.id}`).expect(200);
      await a.owner.agent
        .get(`/v1/organization/${a.org.id}/legend/${gone.id}/certificate`)
        .expect(404)
        .expect(errorBody(404));
    });
  });
});
