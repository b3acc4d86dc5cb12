import type { Agent } from 'supertest';
import { DataSource } from 'typeorm';
import type { TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { createOrg } from '../../support/orgs';
import { loggedInAgent } from '../../support/users';
import { appWithTempStorage } from '../../support/temp-storage';
import { MISSING, pdf, png } from '../documents/upload-fixtures';

/**
 * A valuation's reportFile must be a file of the valuation's organization, as every record named
 * in a body is: another organization's file (even one the caller may read there), a personal
 * file or no file at all is 404, and nothing is recorded.
 */
describe('PUT /v1/valuation: the report file belongs to the organization', () => {
  let t: TestApp;
  let db: DataSource;
  appWithTempStorage((app) => {
    t = app;
    db = app.get(DataSource);
  });

  const upload = async (agent: Agent, path: string, content: Buffer, name: string) => {
    const res = await agent.post(path).attach('file', content, name);
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  };

  /** An Owner of two organizations, each with an uploaded report. */
  async function ownerOfTwo() {
    const owner = await loggedInAgent(t);
    const a = await createOrg(owner.agent, 'Alpha Inc.');
    const b = await createOrg(owner.agent, 'Beta Inc.');
    const fileA = await upload(owner.agent, `/v1/organization/${a.id}/file`, pdf('A'), 'a.pdf');
    const fileB = await upload(owner.agent, `/v1/organization/${b.id}/file`, pdf('B'), 'b.pdf');
    return { owner, a, b, fileA, fileB };
  }

  const put = (agent: Agent, body: Record<string, unknown>) =>
    agent.put('/v1/valuation').send({
      type: '409A',
      pricePerShare: '1.25',
      effectiveDate: '2024-01-01',
      ...body,
    });

  /** What a refused PUT must leave as it was. */
  const footprint = async (orgId: string) =>
    (
      await db.query(
        `SELECT (SELECT count(*) FROM valuation WHERE organization_id = $1)::int AS valuations,
                (SELECT count(*) FROM equity_transaction WHERE organization_id = $1)::int AS log,
                (SELECT count(*) FROM outbox_event WHERE organization_id = $1)::int AS events,
                (SELECT array_agg(report_file_id) FROM valuation WHERE organization_id = $1) AS reports`,
        [orgId],
      )
    )[0];

  it('records a valuation in A with B’s file: 404, nothing stored; with A’s own file: 200', async () => {
    const { owner, a, fileA, fileB } = await ownerOfTwo();
    const before = await footprint(a.id);
    await put(owner.agent, { organization: a.id, reportFile: fileB })
      .expect(404)
      .expect(errorBody(404));
    expect(await footprint(a.id)).toEqual(before);

    const own = await put(owner.agent, { organization: a.id, reportFile: fileA }).expect(200);
    expect(own.body).toMatchObject({ organization: a.id, reportFile: fileA });
  });

  it('amends a valuation of A to B’s file: 404, the valuation keeps its report', async () => {
    const { owner, a, fileA, fileB } = await ownerOfTwo();
    const v = (await put(owner.agent, { organization: a.id, reportFile: fileA }).expect(200)).body;
    const before = await footprint(a.id);
    await put(owner.agent, { organization: a.id, id: v.id, reportFile: fileB })
      .expect(404)
      .expect(errorBody(404));
    expect(await footprint(a.id)).toEqual(before);
    await owner.agent
      .get(`/v1/valuation/${v.id}`)
      .expect(200)
      .expect(({ body }) => expect(body.reportFile).toBe(fileA));
  });

  it('a personal file, an unknown id and a deleted file are 404 too; no report file is fine', async () => {
    const { owner, a, fileA } = await ownerOfTwo();
    const personal = await upload(
      owner.agent,
      `/v1/profile/${owner.user.profileId as string}/file`,
      png(),
      'me.png',
    );
    await db.query('UPDATE stored_file SET deleted_at = now() WHERE id = $1', [fileA]);
    const before = await footprint(a.id);
    for (const reportFile of [personal, MISSING, fileA]) {
      const res = await put(owner.agent, { organization: a.id, reportFile });
      expect({ reportFile, status: res.status }).toEqual({ reportFile, status: 404 });
    }
    expect(await footprint(a.id)).toEqual(before);
    await put(owner.agent, { organization: a.id, reportFile: null }).expect(200);
    await put(owner.agent, { organization: a.id }).expect(200);
  });
});
