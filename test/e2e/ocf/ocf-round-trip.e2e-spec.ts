import type { Agent } from 'supertest';
import { readZip } from '../../../src/ocf/import/ocf-zip';
import { createTestApp, TestApp } from '../../support/app';
import { createOrg } from '../../support/orgs';
import { buildRichOrganization, RichOrganization } from './ocf-fixtures';
import { binary } from '../../support/binary';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * A package as comparable JSON: every file parsed; the transactions in date order (stable: a
 * log replayed by date exports in date order, the original in recording order); the generation
 * timestamp, the issuer's formation date and the manifest's checksums (which follow from the ids)
 * left out; then every id
 * (any UUID, in a value or inside a comment) replaced by its rank of first appearance, files in
 * zip order.
 */
async function normalized(zip: Buffer) {
  const read = await readZip(zip);
  if (!('files' in read)) throw new Error(JSON.stringify(read.problems));
  const files: [string, Record<string, unknown>][] = [];
  for (const [name, bytes] of read.files) {
    const json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    if (name === 'Manifest.ocf.json') {
      delete json.generated_at;
      for (const [key, value] of Object.entries(json)) {
        if (key.endsWith('_files') && Array.isArray(value)) {
          json[key] = value.map((f: { filepath: string }) => ({ filepath: f.filepath }));
        }
      }
    }
    // The organization's creation day: the two organizations may be made either side of midnight.
    const issuer = json.issuer as { formation_date?: string } | undefined;
    if (issuer) delete issuer.formation_date;
    if (json.file_type === 'OCF_TRANSACTIONS_FILE') {
      const items = json.items as { date: string }[];
      json.items = items
        .map((item, i) => ({ item, i }))
        .sort((a, b) => a.item.date.localeCompare(b.item.date) || a.i - b.i)
        .map(({ item }) => item);
    }
    files.push([name, json]);
  }
  const ids = new Map<string, string>();
  const rename = (text: string) =>
    text.replace(UUID, (id) => {
      if (!ids.has(id)) ids.set(id, `id-${ids.size + 1}`);
      return ids.get(id)!;
    });
  return Object.fromEntries(
    files.map(([name, json]) => [name, JSON.parse(rename(JSON.stringify(json))) as unknown]),
  );
}

describe('OCF round trip: export → import into an empty organization → export', () => {
  let t: TestApp;
  let rich: RichOrganization;
  beforeAll(async () => {
    t = await createTestApp();
    rich = await buildRichOrganization(t);
  });
  afterAll(() => t.close());

  const exportOf = async (agent: Agent, orgId: string) =>
    (
      await agent
        .get(`/v1/organization/${orgId}/ocf`)
        .buffer(true)
        .parse(binary as never)
        .expect(200)
    ).body as Buffer;

  it('exports the same package again, apart from ids and the generation time', async () => {
    const agent = rich.owner.agent;
    const first = await exportOf(agent, rich.org.id);
    const target = await createOrg(agent, rich.name);
    const imported = await agent
      .post(`/v1/organization/${target.id}/ocf`)
      .attach('file', first, 'package.zip');
    expect(imported.status).toBe(201);
    // Nothing of the cap table is lost: only what the export itself made up (the issuer's
    // details stay the organization's; the triggers the export writes for every warrant and
    // convertible) is reported as not kept.
    const reasons = new Set((imported.body.warnings as { reason: string }[]).map((w) => w.reason));
    expect([...reasons].sort()).toEqual([
      'conversion triggers are not kept: only the conversion terms',
      'exercise triggers are not kept: only the class they convert to',
      'the issuer is not imported: the organization keeps its own name and details',
    ]);
    expect(imported.body.imported).toMatchObject({ stakeholders: 5, membersCreated: 5 });
    const second = await exportOf(agent, target.id);
    expect(await normalized(second)).toEqual(await normalized(first));
  });
});
