import { request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UploadSlots } from '../../../src/common';
import { createTestApp, TestApp } from '../../support/app';
import { errorBody } from '../../support/errors';
import { eventually, sleep } from '../../support/eventually';
import { sessionSetCookie } from '../../support/sessions';
import { memberAgent } from '../../support/orgs';
import { LoggedInUser, loggedInAgent } from '../../support/users';
import { tempStorage } from '../../support/temp-storage';
import { MISSING, pdf } from './upload-fixtures';
import { ownerWithOrg } from '../../support/world';

/**
 * Upload routes decide the session, the cross-site check and the permission before a byte of the
 * multipart body is read, and a user runs at most UPLOAD_CONCURRENCY_PER_USER uploads at a time.
 * "Before the body is read" is shown by answering a request whose body never arrives in full:
 * a parser that ran first would wait for the rest and answer nothing.
 */

const storage = tempStorage();
const BOUNDARY = 'upload-guarding-boundary';
const MiB = 1024 * 1024;
/** How long an answer may take once the headers are in (the guards run one SQL query). */
const ANSWER_WITHIN_MS = 3000;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A multipart upload sent over a raw connection, its body held open until `finish` or `abort`. */
interface HeldUpload {
  /** The answer, or 'no answer' when the server waits for more of the body. */
  answerSoon(): Promise<Answer | 'no answer'>;
  answer: Promise<Answer>;
  /** Sends the rest of the file and the closing boundary. */
  finish(): void;
  /** Drops the connection mid-body, as a client that gives up. */
  abort(): void;
}

describe('upload routes: guarded before the body is read', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        STORAGE_DIR: storage.dir,
        STORAGE_UPLOAD_SIZE_LIMIT_MB: '1',
        DATA_ROOM_UPLOAD_SIZE_LIMIT_MB: '1',
        UPLOAD_CONCURRENCY_PER_USER: '2',
      },
    });
    server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await t.close();
    storage.remove();
  });

  /** The session cookie of a fresh login of `user` (raw requests carry it themselves). */
  async function cookieOf(user: LoggedInUser): Promise<string> {
    const res = await t.http
      .post('/v1/user/login')
      .send({ email: user.email, password: user.password });
    return sessionSetCookie(res)!.split(';')[0];
  }

  function partHead(name: string, fileName?: string) {
    return (
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"` +
      (fileName ? `; filename="${fileName}"\r\nContent-Type: application/octet-stream` : '') +
      '\r\n\r\n'
    );
  }

  /**
   * Starts a multipart upload of one file (`fields` first); sends the headers, the fields and the
   * file's first bytes, then waits. `declaredBytes` is the Content-Length announced (chunked when
   * left out), so a body can claim to be far over the limit without being sent.
   */
  function heldUpload(
    path: string,
    options: {
      cookie?: string;
      headers?: Record<string, string>;
      fields?: Record<string, string>;
      declaredBytes?: number;
      fileName?: string;
    } = {},
  ): HeldUpload {
    const head = Buffer.from(
      Object.entries(options.fields ?? {})
        .map(([k, v]) => `${partHead(k)}${v}\r\n`)
        .join('') + partHead('file', options.fileName ?? 'held.pdf'),
    );
    const content = pdf('held open');
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const headers: Record<string, string> = {
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(options.cookie ? { Cookie: options.cookie } : {}),
      ...(options.declaredBytes ? { 'Content-Length': String(options.declaredBytes) } : {}),
      ...options.headers,
    };
    let req: ClientRequest;
    const answer = new Promise<Answer>((resolve, reject) => {
      req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} });
        });
      });
      req.on('error', reject);
    });
    // An aborted upload rejects its answer on purpose; nobody waits for it then.
    answer.catch(() => undefined);
    req!.write(Buffer.concat([head, content.subarray(0, 8)]));
    return {
      answer,
      answerSoon: () =>
        Promise.race([answer, sleep(ANSWER_WITHIN_MS).then(() => 'no answer' as const)]),
      finish: () => req.end(Buffer.concat([content.subarray(8), tail])),
      abort: () => req.destroy(),
    };
  }

  /** Expects `upload` to be refused with `status` while its body is still incomplete. */
  async function refusedUnread(upload: HeldUpload, status: number) {
    try {
      const answer = await upload.answerSoon();
      expect(answer).toMatchObject({ status });
      return answer as Answer;
    } finally {
      upload.abort();
    }
  }

  async function organization() {
    const { owner, org } = await ownerWithOrg(t);
    return { owner, org, cookie: await cookieOf(owner) };
  }

  const orgRoutes = (org: string) => [
    `/v1/organization/${org}/file`,
    `/v1/organization/${org}/document`,
    `/v1/organization/${org}/import`,
    `/v1/organization/${org}/ocf`,
  ];

  describe('(a) without a session', () => {
    it('every upload route answers 401 before reading the body (which claims 50 MiB)', async () => {
      const { owner, org } = await organization();
      const paths = [
        ...orgRoutes(org.id),
        `/v1/profile/${owner.user.profileId}/file`,
        '/v1/organization/member/upload',
        `/v1/organization/member/upload?organization=${org.id}`,
      ];
      for (const path of paths) {
        const answer = await refusedUnread(
          heldUpload(path, { declaredBytes: 50 * MiB, fields: { organization: org.id } }),
          401,
        );
        expect({ path, body: answer.body }).toEqual({
          path,
          body: { error: 'Unauthorized', key: 'unauthorized', message: expect.any(String) },
        });
      }
    });

    it('a body over the size limit sent in full is 401, not 413 (it was never parsed)', async () => {
      const { org } = await organization();
      await t.http
        .post(`/v1/organization/${org.id}/file`)
        .attach('file', Buffer.alloc(2 * MiB, 1), 'big.pdf')
        .expect(401)
        .expect(errorBody(401));
    });

    it('a cross-site upload with a session is 403 before the body is read', async () => {
      const { org, cookie } = await organization();
      await refusedUnread(
        heldUpload(`/v1/organization/${org.id}/file`, {
          cookie,
          headers: { Origin: 'https://evil.example' },
        }),
        403,
      );
    });
  });

  describe('(b) logged in without the permission', () => {
    it('a Viewer is refused 403 on every organization upload route before the body is read', async () => {
      const { owner, org } = await organization();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      const cookie = await cookieOf(viewer);
      for (const path of orgRoutes(org.id)) {
        await refusedUnread(heldUpload(path, { cookie, declaredBytes: 50 * MiB }), 403);
      }
    });

    it('another organization is 403 and a made-up one 404, before the body is read', async () => {
      const mine = await organization();
      const theirs = await organization();
      for (const path of orgRoutes(theirs.org.id)) {
        await refusedUnread(
          heldUpload(path, { cookie: mine.cookie, declaredBytes: 50 * MiB }),
          403,
        );
      }
      for (const path of orgRoutes(MISSING)) {
        await refusedUnread(
          heldUpload(path, { cookie: mine.cookie, declaredBytes: 50 * MiB }),
          404,
        );
      }
    });

    it('another user’s profile is 403 before the body is read', async () => {
      const mine = await organization();
      const other = await loggedInAgent(t);
      await refusedUnread(
        heldUpload(`/v1/profile/${other.user.profileId}/file`, {
          cookie: mine.cookie,
          declaredBytes: 50 * MiB,
        }),
        403,
      );
    });

    it('a body over the limit sent in full by a Viewer is 403, not 413', async () => {
      const { owner, org } = await organization();
      const viewer = await memberAgent(t, owner.agent, org.id, 'Viewer');
      await viewer.agent
        .post(`/v1/organization/${org.id}/document`)
        .attach('file', Buffer.alloc(2 * MiB, 1), 'big.pdf')
        .expect(403)
        .expect(errorBody(403));
    });

    it('member upload: the organization in the query is decided before the body is read', async () => {
      const mine = await organization();
      const theirs = await organization();
      const path = '/v1/organization/member/upload';
      await refusedUnread(
        heldUpload(`${path}?organization=${theirs.org.id}`, {
          cookie: mine.cookie,
          declaredBytes: 50 * MiB,
        }),
        403,
      );
      await refusedUnread(
        heldUpload(`${path}?organization=${MISSING}`, {
          cookie: mine.cookie,
          declaredBytes: 50 * MiB,
        }),
        404,
      );
      // Without it, someone who may edit no organization at all is refused before the body too.
      const viewer = await memberAgent(t, mine.owner.agent, mine.org.id, 'Viewer');
      await refusedUnread(
        heldUpload(path, {
          cookie: await cookieOf(viewer),
          declaredBytes: 50 * MiB,
          fields: { organization: mine.org.id },
        }),
        403,
      );
    });
  });

  describe('member upload with the organization in the query', () => {
    const members = (text: string) => Buffer.from(text, 'utf8');

    it('works with the query alone, or with the same organization in both', async () => {
      const { owner, org } = await organization();
      await owner.agent
        .post(`/v1/organization/member/upload?organization=${org.id}`)
        .attach('file', members('name,email\nAda,ada@example.com\n'), 'm.csv')
        .expect(201);
      await owner.agent
        .post(`/v1/organization/member/upload?organization=${org.id}`)
        .field('organization', org.id)
        .attach('file', members('name,email\nBob,bob@example.com\n'), 'm.csv')
        .expect(201);
      const list = await owner.agent.get(`/v1/organization/${org.id}/member`).expect(200);
      expect(list.body).toHaveLength(3);
    });

    it('refuses a form organization that differs from the query’s (400), creating nothing', async () => {
      const mine = await organization();
      const theirs = await organization();
      const res = await mine.owner.agent
        .post(`/v1/organization/member/upload?organization=${mine.org.id}`)
        .field('organization', theirs.org.id)
        .attach('file', members('name,email\nAda,ada@example.com\n'), 'm.csv')
        .expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: expect.stringContaining('organization'),
      });
      for (const o of [mine, theirs]) {
        const list = await o.owner.agent.get(`/v1/organization/${o.org.id}/member`).expect(200);
        expect(list.body).toHaveLength(1);
      }
    });

    it('the form’s organization alone is still decided once the form is read', async () => {
      const mine = await organization();
      const theirs = await organization();
      await mine.owner.agent
        .post('/v1/organization/member/upload')
        .field('organization', theirs.org.id)
        .attach('file', members('name,email\nAda,ada@example.com\n'), 'm.csv')
        .expect(403)
        .expect(errorBody(403));
      await mine.owner.agent
        .post('/v1/organization/member/upload')
        .attach('file', members('name,email\nAda,ada@example.com\n'), 'm.csv')
        .expect(400);
    });
  });

  describe('(c) concurrent uploads per user', () => {
    const slots = () => t.get<UploadSlots>(UploadSlots);
    const upload = (owner: LoggedInUser, org: string, name = 'quick.pdf') =>
      owner.agent.post(`/v1/organization/${org}/file`).attach('file', pdf(name), name);

    it('a third upload while two are open is 429; others and later uploads go through', async () => {
      const { owner, org, cookie } = await organization();
      const path = `/v1/organization/${org.id}/file`;
      const first = heldUpload(path, { cookie });
      const second = heldUpload(path, { cookie });
      try {
        await eventually(async () => (await slots().inUse(owner.user.id)) === 2, 5000);
        const refused = await upload(owner, org.id).expect(429);
        expect(refused.body).toEqual({
          error: 'Too Many Requests',
          key: 'tooManyUploads',
          message: expect.stringContaining('2'),
        });
        expect(refused.headers).toMatchObject({
          'retry-after': '1',
          'x-ratelimit-limit': '2',
          'x-ratelimit-remaining': '0',
        });
        // Another user is not held up by them.
        const other = await organization();
        await upload(other.owner, other.org.id).expect(201);

        first.finish();
        expect((await first.answer).status).toBe(201);
        await upload(owner, org.id, 'after-first.pdf').expect(201);
      } finally {
        first.abort();
        second.abort();
      }
      await eventually(async () => (await slots().inUse(owner.user.id)) === 0);
      // The aborted one gave its place back: two can be held again, and both complete.
      const third = heldUpload(path, { cookie });
      const fourth = heldUpload(path, { cookie });
      try {
        await eventually(async () => (await slots().inUse(owner.user.id)) === 2, 5000);
        await upload(owner, org.id).expect(429);
        third.finish();
        fourth.finish();
        expect((await third.answer).status).toBe(201);
        expect((await fourth.answer).status).toBe(201);
      } finally {
        third.abort();
        fourth.abort();
      }
      await eventually(async () => (await slots().inUse(owner.user.id)) === 0);
    });

    it('a failed upload (413, 400) gives its place back', async () => {
      const { owner, org } = await organization();
      for (let i = 0; i < 3; i++) {
        await owner.agent
          .post(`/v1/organization/${org.id}/file`)
          .attach('file', Buffer.alloc(2 * MiB, 1), 'big.pdf')
          .expect(413);
        await owner.agent
          .post(`/v1/organization/${org.id}/file`)
          .set('Content-Type', `multipart/form-data; boundary=${BOUNDARY}`)
          .send(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\nno end`,
          )
          .expect(400);
      }
      await eventually(async () => (await slots().inUse(owner.user.id)) === 0);
      await upload(owner, org.id).expect(201);
    });
  });
});
