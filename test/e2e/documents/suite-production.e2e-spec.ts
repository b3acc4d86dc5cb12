import '../../support/agent-on';
import type { Test } from 'supertest';
import { FakeGraph } from '../../fakes/graph';
import { FakeLlm } from '../../fakes/llm';
import { createTestApp, TestApp } from '../../support/app';
import { sessionSetCookie } from '../../support/sessions';
import { registerUser } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { pdf } from './upload-fixtures';

const base = (org: string) => `/v1/organization/${org}`;

describe('document stores in production', () => {
  const storage = tempStorage();
  let graph: FakeGraph;
  let llm: FakeLlm;
  let t: TestApp;
  beforeAll(async () => {
    graph = await FakeGraph.start();
    llm = await FakeLlm.start();
    t = await createTestApp({
      env: {
        ...graph.env(),
        ...llm.env(),
        NODE_ENV: 'production',
        TRUST_PROXY: 'loopback',
        STORAGE_DIR: storage.dir,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await graph.close();
    await llm.close();
    storage.remove();
  });

  /** A signed-in caller: the session cookie is Secure in production, sent back by hand behind the trusted proxy. */
  async function signedIn() {
    const { email, password } = await registerUser(t);
    const login = await t.http
      .post('/v1/user/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ email, password })
      .expect(200);
    const cookie = sessionSetCookie(login)!.split(';')[0];
    return (req: Test) => req.set('Cookie', cookie).set('X-Forwarded-Proto', 'https');
  }

  it('serves the suite store and not the data room; new organizations default to the suite', async () => {
    const as = await signedIn();
    const suite = (
      await as(t.http.post('/v1/organization')).send({ name: 'Prod Suite' }).expect(201)
    ).body;
    expect(suite.documentStore).toBe('suite');
    const room = (
      await as(t.http.post('/v1/organization'))
        .send({ name: 'Prod Room', documentStore: 'dataRoom' })
        .expect(201)
    ).body;
    expect(room.documentStore).toBe('dataRoom');

    const [doc] = (
      await as(t.http.post(`${base(suite.id)}/document`))
        .attach('file', pdf(), 'p.pdf')
        .expect(201)
    ).body;
    expect(
      (await as(t.http.get(`${base(suite.id)}/document`)).expect(200)).body.map(
        (e: { name: string }) => e.name,
      ),
    ).toEqual(['p.pdf']);
    await as(t.http.get(`${base(suite.id)}/document/${doc.id}/content`)).expect(200);
    await as(t.http.post(`${base(suite.id)}/document/many`))
      .attach('file', pdf(), 'q.pdf')
      .expect(201);
    await as(t.http.post(`${base(suite.id)}/folder`))
      .send({ name: 'F' })
      .expect(201);

    // The data room organization's routes answer as an unknown path, before the upload is read.
    const unknown = await as(t.http.get('/v1/no-such-route')).expect(404);
    for (const req of [
      t.http.get(`${base(room.id)}/document`),
      t.http.post(`${base(room.id)}/document`).attach('file', pdf(), 'a.pdf'),
      t.http.post(`${base(room.id)}/document/many`).attach('file', pdf(), 'a.pdf'),
      t.http.post(`${base(room.id)}/folder`).send({ name: 'x' }),
    ]) {
      expect((await as(req).expect(404)).body).toEqual(unknown.body);
    }
    // Routes of a record: no record of a data room can exist there (another's is 404 anyway).
    for (const req of [
      t.http.get(`${base(room.id)}/document/${doc.id}/content`),
      t.http.post(`${base(room.id)}/document/${doc.id}/move`).send({ name: 'x.pdf' }),
      t.http.delete(`${base(room.id)}/document/${doc.id}`),
    ]) {
      await as(req).expect(404);
    }
    expect(storage.files()).toEqual([]);
  });

  it('offers list_documents only where the organization’s store serves it', async () => {
    const as = await signedIn();
    const suite = (
      await as(t.http.post('/v1/organization')).send({ name: 'Agent Suite' }).expect(201)
    ).body;
    const room = (
      await as(t.http.post('/v1/organization'))
        .send({ name: 'Agent Room', documentStore: 'dataRoom' })
        .expect(201)
    ).body;
    const allowed = async (org: string) =>
      (
        (await as(t.http.get(`${base(org)}/agent/tools`)).expect(200)).body as {
          name: string;
          allowed: boolean;
        }[]
      ).find((tool) => tool.name === 'list_documents')?.allowed;
    expect(await allowed(suite.id)).toBe(true);
    expect(await allowed(room.id)).toBe(false);
  });
});
