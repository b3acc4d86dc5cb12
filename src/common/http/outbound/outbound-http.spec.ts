import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeServer, listenOnFreePort } from '../../../../test/fakes/listen';
import { captureOutput } from '../../../../test/support/output';
import { OutboundHttpError } from './outbound-error';
import { OutboundHttp, OutboundHttpOptions } from './outbound-http';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (res: ServerResponse) => void;

/** A local server answering from a script (then 200 `{"ok":true}`), recording what it got. */
class ScriptedServer {
  readonly seen: Seen[] = [];
  private readonly script: Answer[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  origin = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.seen.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        (this.script.shift() ?? json(200, { ok: true }))(res);
      });
    });
    this.origin = `http://127.0.0.1:${await listenOnFreePort(this.server)}`;
    return this;
  }

  next(...answers: Answer[]) {
    this.script.push(...answers);
    return this;
  }

  hang(): Answer {
    return (res) => void this.hanging.add(res);
  }

  close() {
    return closeServer(this.server, this.hanging);
  }
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

describe('OutboundHttp', () => {
  let server: ScriptedServer;
  let lines: { level: 'log' | 'warn'; line: string }[];
  let waits: number[];
  const clients: OutboundHttp[] = [];

  beforeEach(async () => {
    server = await new ScriptedServer().start();
    lines = [];
    waits = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await server.close();
  });

  const client = (options: Partial<OutboundHttpOptions> = {}) => {
    const made = new OutboundHttp({
      provider: 'acme',
      timeoutMs: 300,
      retries: 2,
      sleep: async (ms) => void waits.push(ms),
      logger: {
        log: (line) => void lines.push({ level: 'log', line }),
        warn: (line) => void lines.push({ level: 'warn', line }),
      },
      ...options,
    });
    clients.push(made);
    return made;
  };

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (err: unknown) => {
        expect(err).toBeInstanceOf(OutboundHttpError);
        return err as OutboundHttpError;
      },
    );

  describe('send', () => {
    it('sends the request and answers the parsed body, logging the call once', async () => {
      server.next(json(201, { id: 7 }));
      const answer = await client().send({
        method: 'POST',
        url: `${server.origin}/things?per_page=2`,
        headers: { authorization: 'Bearer s3cr3t-token-value' },
        json: { name: 'x' },
        repeatable: false,
      });
      expect(answer).toMatchObject({ status: 201, body: { id: 7 }, attempts: 1 });
      expect(server.seen).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: '/things?per_page=2',
          body: '{"name":"x"}',
        }),
      ]);
      expect(server.seen[0].headers).toMatchObject({
        authorization: 'Bearer s3cr3t-token-value',
        'content-type': 'application/json',
      });
      expect(lines).toEqual([
        {
          level: 'log',
          line: expect.stringMatching(
            new RegExp(`^acme POST ${server.origin}/things\\?per_page=2: answered 201 in \\d+ ms$`),
          ),
        },
      ]);
    });

    it('throws one error for a refused call: status, body, excerpt, not retryable, not retried', async () => {
      server.next(json(422, { errors: ['name is taken'] }, { 'x-request-id': 'r-1' }));
      const err = await failure(
        client().send({ method: 'GET', url: `${server.origin}/x`, repeatable: true }),
      );
      expect(err).toMatchObject({
        provider: 'acme',
        method: 'GET',
        failure: 'status',
        status: 422,
        retryable: false,
        attempts: 1,
        excerpt: '{"errors":["name is taken"]}',
      });
      expect(err.body).toEqual({ errors: ['name is taken'] });
      expect(err.headers?.get('x-request-id')).toBe('r-1');
      expect(err.message).toBe(
        `acme GET ${server.origin}/x: answered 422 ({"errors":["name is taken"]})`,
      );
      expect(server.seen).toHaveLength(1);
      expect(lines).toHaveLength(1);
    });

    it('answers a status the call accepts, and reads at most maxBodyBytes', async () => {
      server.next((res) => {
        res.writeHead(503);
        res.end('x'.repeat(10_000));
      });
      const answer = await client().send({
        method: 'POST',
        url: server.origin,
        body: 'hello',
        repeatable: false,
        accept: () => true,
        maxBodyBytes: 100,
      });
      expect(answer).toMatchObject({ status: 503, text: 'x'.repeat(100) });
    });

    it('does not follow a redirect when told so: the 3xx is the answer', async () => {
      server.next((res) => {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
      });
      const err = await failure(
        client({ redirect: 'manual' }).send({
          method: 'GET',
          url: server.origin,
          repeatable: true,
        }),
      );
      expect(err).toMatchObject({ status: 302, retryable: false });
      expect(server.seen.map((s) => s.url)).toEqual(['/']);
    });
  });

  describe('timeouts', () => {
    it('stops waiting at the timeout, per attempt, and retries a repeatable call', async () => {
      server.next(server.hang(), server.hang());
      const started = Date.now();
      const answer = await client().send({ method: 'GET', url: server.origin, repeatable: true });
      expect(answer.status).toBe(200);
      expect(answer.attempts).toBe(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
      expect(waits).toEqual([250, 500]);
      expect(lines).toEqual([
        { level: 'log', line: expect.stringMatching(/: answered 200 \(3 attempts\) in \d+ ms$/) },
      ]);
    });

    it('gives up after one attempt of a call that is not repeatable', async () => {
      server.next(server.hang());
      const err = await failure(
        client().send({ method: 'POST', url: server.origin, repeatable: false }),
      );
      expect(err).toMatchObject({
        failure: 'timeout',
        status: undefined,
        retryable: true,
        attempts: 1,
        message: `acme POST ${server.origin}/: no answer in 300 ms`,
      });
      expect(server.seen).toHaveLength(1);
      expect(lines).toEqual([
        { level: 'warn', line: expect.stringContaining('no answer in 300 ms') },
      ]);
    });

    it('takes a per-call timeout, and does not retry unanswered calls when told so', async () => {
      server.next(server.hang());
      const err = await failure(
        client({ retryUnanswered: false }).send({
          method: 'GET',
          url: server.origin,
          repeatable: true,
          timeoutMs: 50,
        }),
      );
      expect(err).toMatchObject({ failure: 'timeout', attempts: 1 });
      expect(err.message).toMatch(/no answer in 50 ms$/);
      expect(server.seen).toHaveLength(1);
    });

    it('names a connection that fails, retried when repeatable', async () => {
      const closed = createServer();
      const port = await listenOnFreePort(closed);
      await new Promise((resolve) => closed.close(resolve));
      const err = await failure(
        client().send({ method: 'GET', url: `http://127.0.0.1:${port}/`, repeatable: true }),
      );
      expect(err).toMatchObject({ failure: 'network', retryable: true, attempts: 3 });
      expect(err.message).toMatch(/fetch failed: connect ECONNREFUSED/);
      expect(err.cause).toBeInstanceOf(Error);
    });
  });

  describe('retries', () => {
    it('retries a repeatable call after 5xx and 429 answers, with a doubling backoff', async () => {
      server.next(json(500, {}), json(429, {}));
      const answer = await client().send({ method: 'GET', url: server.origin, repeatable: true });
      expect(answer).toMatchObject({ status: 200, attempts: 3 });
      expect(waits).toEqual([250, 500]);
    });

    it('never retries a call that is not repeatable', async () => {
      server.next(json(503, {}));
      const err = await failure(
        client().send({ method: 'POST', url: server.origin, repeatable: false }),
      );
      expect(err).toMatchObject({ status: 503, retryable: true, attempts: 1 });
      expect(server.seen).toHaveLength(1);
      expect(waits).toEqual([]);
    });

    it('gives up after the bounded retries', async () => {
      server.next(json(503, {}), json(502, {}), json(500, { error: 'down' }), json(500, {}));
      const err = await failure(
        client().send({ method: 'GET', url: server.origin, repeatable: true }),
      );
      expect(err).toMatchObject({ status: 500, retryable: true, attempts: 3 });
      expect(err.message).toBe(
        `acme GET ${server.origin}/: answered 500 ({"error":"down"}) (3 attempts)`,
      );
      expect(server.seen).toHaveLength(3);
    });

    it('waits the Retry-After asked (seconds, a date, retry-after-ms) up to the cap', async () => {
      const inTwoSeconds = new Date(Date.now() + 1_900).toUTCString();
      server.next(json(429, {}, { 'retry-after': '1' }), json(503, {}, { 'retry-after-ms': '20' }));
      await client().send({ method: 'GET', url: server.origin, repeatable: true });
      expect(waits).toEqual([1000, 20]);

      waits.length = 0;
      server.next(json(503, {}, { 'retry-after': inTwoSeconds }));
      await client().send({ method: 'GET', url: server.origin, repeatable: true });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits[0]).toBeLessThanOrEqual(2_000);
    });

    it('stops at a Retry-After over the cap and surfaces it', async () => {
      server.next(json(429, { error: 'slow down' }, { 'retry-after': '60' }));
      const err = await failure(
        client().send({ method: 'GET', url: server.origin, repeatable: true }),
      );
      expect(err).toMatchObject({
        status: 429,
        retryable: true,
        retryAfterMs: 60_000,
        retryAfterOverCap: true,
        attempts: 1,
      });
      expect(err.message).toMatch(/asked to wait 60000 ms, over the 2000 ms cap$/);
      expect(server.seen).toHaveLength(1);
      expect(waits).toEqual([]);
      expect(lines).toEqual([
        { level: 'warn', line: expect.stringContaining('over the 2000 ms cap') },
      ]);
    });
  });

  describe('asFetch', () => {
    it('answers the last response unread, retrying only the methods said repeatable', async () => {
      const fetch = client().asFetch((method) => method === 'GET');
      server.next(json(503, {}), json(200, { fine: true }));
      const got = await fetch(`${server.origin}/a`, { headers: { accept: 'application/json' } });
      expect(got.status).toBe(200);
      await expect(got.json()).resolves.toEqual({ fine: true });
      expect(server.seen).toHaveLength(2);
      expect(waits).toEqual([250]);

      server.next(json(503, { error: 'down' }));
      const posted = await fetch(`${server.origin}/b`, { method: 'POST', body: '{}' });
      expect(posted.status).toBe(503);
      await expect(posted.json()).resolves.toEqual({ error: 'down' });
      expect(server.seen).toHaveLength(3);
      expect(lines.map((l) => l.level)).toEqual(['log', 'warn']);
      expect(lines[1].line).toMatch(/^acme POST .*\/b: answered 503 \(\{"error":"down"\}\) in/);
    });

    it('marks an answer whose Retry-After is over the cap x-should-retry: false', async () => {
      const fetch = client({ retries: 0, maxRetryDelayMs: 60_000 }).asFetch();
      server.next(json(429, {}, { 'retry-after': '61' }), json(429, {}, { 'retry-after': '59' }));
      const over = await fetch(server.origin, { method: 'POST', body: '{}' });
      expect(over.status).toBe(429);
      expect(over.headers.get('x-should-retry')).toBe('false');
      expect(over.headers.get('retry-after')).toBe('61');
      const under = await fetch(server.origin, { method: 'POST', body: '{}' });
      expect(under.headers.get('x-should-retry')).toBeNull();
    });

    it("throws fetch's own error when no answer comes, and honours the caller's signal", async () => {
      const fetch = client({ timeoutMs: 0 }).asFetch(() => true);
      server.next(server.hang());
      const abort = new AbortController();
      const pending = fetch(server.origin, { signal: abort.signal });
      while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      abort.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(server.seen).toHaveLength(1);
      expect(lines).toEqual([
        { level: 'warn', line: expect.stringContaining('aborted by the caller') },
      ]);
    });
  });

  describe('logs', () => {
    it('never writes a secret: headers, user info, query parameters, body fields, echoed credentials', async () => {
      const output = captureOutput();
      try {
        // Nest's own logger, as the app's, to stdout.
        const http = new OutboundHttp({ provider: 'acme', secretFields: ['card_number'] });
        clients.push(http);
        const port = new URL(server.origin).port;
        server.next(
          json(401, {
            error: 'invalid_grant',
            access_token: 'at-1234567890',
            nested: { client_secret: 'cs-1234567890', card_number: '4111111111111111' },
            echo: 'you sent Bearer bt-1234567890 and sk-live-1234567890',
          }),
        );
        const refused = await failure(
          http.send({
            method: 'POST',
            url: `${server.origin}/t?access_token=qt-1234567890&page=2&code=oc-1234567890`,
            headers: {
              authorization: 'Bearer bt-1234567890',
              cookie: 'sid=ck-1234567890',
              'x-api-key': 'sk-live-1234567890',
              accept: 'application/json',
            },
            body: 'refresh_token=rt-1234567890&grant_type=refresh_token',
            repeatable: false,
          }),
        );
        // fetch refuses user info in a URL, naming the URL.
        const unsent = await failure(
          http.send({
            method: 'GET',
            url: `http://user:pw-1234567890@127.0.0.1:${port}/ok?token=qt-1234567890`,
            repeatable: false,
          }),
        );
        expect(unsent).toMatchObject({ failure: 'network' });
        expect(server.seen).toHaveLength(1);
        const written = output.text();
        const secrets = [
          'pw-1234567890',
          'at-1234567890',
          'cs-1234567890',
          '4111111111111111',
          'bt-1234567890',
          'sk-live-1234567890',
          'ck-1234567890',
          'qt-1234567890',
          'oc-1234567890',
          'rt-1234567890',
        ];
        for (const secret of secrets) {
          expect(written).not.toContain(secret);
          for (const err of [refused, unsent]) {
            expect(err.message).not.toContain(secret);
            expect(err.excerpt).not.toContain(secret);
            expect(err.url).not.toContain(secret);
          }
        }
        expect(written).toContain('[OutboundHttp]');
        expect(written).toContain(
          `acme POST ${server.origin}/t?access_token=[redacted]&page=2&code=[redacted]: answered 401 ({"error":"invalid_grant","access_token":"[redacted]",`,
        );
        expect(written).toContain('"echo":"you sent [redacted] and [redacted]"');
        expect(written).toContain(
          'accept: application/json; authorization: [redacted]; cookie: [redacted]; x-api-key: [redacted]',
        );
        expect(written).toContain(
          `acme GET http://[redacted]@127.0.0.1:${port}/ok?token=[redacted]: Request cannot be constructed ` +
            `from a URL that includes credentials: http://[redacted]@127.0.0.1:${port}/ok?token=[redacted] in`,
        );
        // The whole body stays on the error for the client's mapping, off its inspection.
        expect(refused.body).toMatchObject({ access_token: 'at-1234567890' });
        expect(JSON.stringify(refused)).not.toContain('at-1234567890');
      } finally {
        output.restore();
      }
    });

    it('hides the path of a URL that is the receiver secret', async () => {
      await client({ secretPath: true }).send({
        method: 'POST',
        url: `${server.origin}/services/T000/B000/XXXXSECRET?x=1`,
        repeatable: false,
      });
      expect(lines[0].line).toContain(`acme POST ${server.origin}/[redacted]?x=1: answered 200`);
    });
  });
});
