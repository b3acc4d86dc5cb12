import type { LookupAddress, LookupOptions } from 'node:dns';
import net, { BlockList, isIP } from 'node:net';
import { DataSource } from 'typeorm';
import { WebhookHostResolver } from '../../../src/webhooks/host-resolver';
import { WebhookReceiver } from '../../fakes/webhook-receiver';
import { createTestApp, TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { deliveriesOf, registerEndpoint, webhookPath } from '../../support/webhooks';
import { ownerWithOrg } from '../../support/world';

/**
 * Issue 21's SSRF rules at delivery time: the URL is checked again before each attempt (after
 * name resolution), the addresses are checked again by the connection's own lookup (DNS
 * rebinding), and redirects are never followed. A refused attempt fails with httpStatus 0 before
 * any connection is opened. Nothing here ever connects beyond loopback: literal non-loopback
 * addresses are refused by the app, host names go through an injected resolver, and
 * `loopbackOnly` fails any connection the app would open elsewhere without sending a packet.
 */

// A global unicast address of the unallocated 3ffe::/16 (documentation ranges are refused):
// registrations that need a host name to resolve at first. `loopbackOnly` keeps any connection off it.
const PUBLIC_ADDRESS = '3ffe::7';
// Registered inactive: no event is sent to it before the test points the endpoint elsewhere.
const PUBLIC_URL = 'https://[3ffe::10]/ledgerline';
const PRIVATE_REASON = 'a loopback, private, link-local or unique-local address';
const METADATA_REASON = 'a cloud metadata address';
/** A refused host name, whatever it resolved to: the attempt's error tells no address. */
const NAME_REFUSED = 'url must resolve to a public address';

type Agent = ReturnType<TestApp['agent']>;
type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
type Lookup = (host: string, options: LookupOptions, callback: LookupCallback) => void;

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
const isLoopback = (address: string) => {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

/**
 * For the whole file, every net.connect (undici's plain-http connections: every URL this file
 * delivers to is http) to a non-loopback address — a literal host, or an address a lookup
 * answered — fails at once (ETESTGUARD) without a packet sent, and is recorded; each test then
 * fails if anything was.
 */
function loopbackOnly() {
  const escaped: string[] = [];
  const guardError = (target: string) =>
    Object.assign(new Error(`test guard: no connection to ${target}`), { code: 'ETESTGUARD' });
  const guardedLookup =
    (lookup: Lookup): Lookup =>
    (host, options, callback) =>
      lookup(host, options, (err, address, family) => {
        const addresses =
          typeof address === 'string' ? [address] : (address ?? []).map((a) => a.address);
        const outside = addresses.filter((a) => !isLoopback(a));
        if (err || !outside.length) return callback(err, address, family);
        escaped.push(`${host} → ${outside.join(', ')}`);
        callback(guardError(host), []);
      });
  let spy: jest.SpyInstance | undefined;
  beforeAll(() => {
    const connect = net.connect.bind(net) as (...args: unknown[]) => net.Socket;
    spy = jest.spyOn(net, 'connect').mockImplementation(((...args: unknown[]) => {
      const options = args[0] as { host?: string; lookup?: Lookup } | undefined;
      if (options && typeof options === 'object' && typeof options.host === 'string') {
        const host = options.host.replace(/^\[(.*)\]$/, '$1');
        if (isIP(host) && !isLoopback(host)) {
          escaped.push(host);
          const socket = new net.Socket();
          process.nextTick(() => socket.destroy(guardError(host)));
          return socket;
        }
        if (!isIP(host) && options.lookup) {
          args[0] = { ...options, lookup: guardedLookup(options.lookup) };
        }
      }
      return connect(...args);
    }) as typeof net.connect);
  });
  afterEach(() => {
    expect(escaped.splice(0)).toEqual([]);
  });
  afterAll(() => spy?.mockRestore());
}

/** The app's name lookups, answered by the test (the URL check and the connect-time lookup). */
function spyResolver(t: TestApp) {
  return jest.spyOn(t.get<WebhookHostResolver>(WebhookHostResolver), 'resolve');
}

async function world(t: TestApp, name: string) {
  const { owner, org } = await ownerWithOrg(t, name);
  const base = webhookPath(org.id);
  const rename = (to: string) =>
    owner.agent.patch(`/v1/organization/${org.id}`).send({ name: to }).expect(200);
  const test = async (endpointId: string) =>
    (await owner.agent.post(`${base}/${endpointId}/test`).send({}).expect(200)).body as {
      success: boolean;
      httpStatus: number;
      responseTime: number;
      error?: string;
      event: { id: string; type: string };
    };
  const history = async (endpointId: string) =>
    (await owner.agent.get(`${base}/${endpointId}/delivery`).expect(200)).body.data as {
      eventId: string;
      eventType: string;
      attempt: number;
      httpStatus: number;
      responseBody: string | null;
      error: string | null;
    }[];
  /**
   * The first attempt of the endpoint's one delivery of a real event, once recorded: a failure,
   * so the delivery stays pending with its retry scheduled.
   */
  const retried = async (endpointId: string) => {
    const delivery = await eventually(async () => {
      const rows = (await deliveriesOf(t, endpointId)).filter((d) => !d.test);
      if (rows.length !== 1 || rows[0].attempts !== 1) throw new Error('not attempted yet');
      return rows[0];
    });
    expect(delivery).toMatchObject({
      event_type: 'organization.updated',
      status: 'pending',
      next_attempt_at: expect.any(Date),
    });
    const [attempt] = await history(endpointId);
    expect(attempt).toMatchObject({
      eventId: delivery.event_id,
      eventType: 'organization.updated',
      attempt: 1,
    });
    return attempt;
  };
  return { owner, org, base, rename, test, history, retried };
}

/** Registers an inactive endpoint at `url` (a public address or a name that resolves to one). */
async function registerInactive(agent: Agent, org: string, url: string): Promise<string> {
  const res = await agent.post(webhookPath(org)).send({ url, active: false }).expect(201);
  return res.body.id as string;
}

/** Changes the stored endpoint as if the URL rules had changed since it was registered. */
const storeEndpoint = (t: TestApp, id: string, fields: { url?: string; active?: boolean }) =>
  t.get<DataSource>(DataSource).query(
    `UPDATE webhook_endpoint SET url = COALESCE($2, url), active = COALESCE($3, active)
       WHERE id = $1`,
    [id, fields.url ?? null, fields.active ?? null],
  );

/** A describe block whose tests run on an app of its own, `app.t`, with WEBHOOK_ALLOW_PRIVATE_URLS as given. */
function describeWithApp(
  title: string,
  allowPrivateUrls: '' | 'true',
  tests: (app: { t: TestApp }) => void,
) {
  describe(title, () => {
    const app = {} as { t: TestApp };
    beforeAll(async () => {
      app.t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: allowPrivateUrls } });
    });
    afterAll(() => app.t.close());
    tests(app);
  });
}

describe('webhook delivery refuses SSRF targets (issue 21)', () => {
  loopbackOnly();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(() => receiver.close());

  describeWithApp('with private URLs refused (WEBHOOK_ALLOW_PRIVATE_URLS empty)', '', (app) => {
    it('refuses a stored loopback or private URL at each attempt: httpStatus 0 with the reason, no request', async () => {
      const { t } = app;
      const { owner, org, test, history } = await world(t, 'Policy Changed Inc.');
      const id = await registerInactive(owner.agent, org.id, PUBLIC_URL);
      const cases = [
        [receiver.url('/ssrf-v4'), '127.0.0.1'],
        [`http://[::1]:${receiver.port}/ssrf-v6`, '::1'],
        ['http://10.0.0.1/ssrf', '10.0.0.1'],
        // The URL parser writes the IPv4-mapped address in hex.
        [`http://[::ffff:127.0.0.1]:${receiver.port}/ssrf-mapped`, '::ffff:7f00:1'],
      ];
      const events: string[] = [];
      for (const [url, address] of cases) {
        await storeEndpoint(t, id, { url });
        const res = await test(id);
        expect({ url, ...res }).toEqual({
          url,
          success: false,
          deliveryId: expect.stringMatching(/^whd_/),
          httpStatus: 0,
          responseTime: 0,
          event: { id: expect.any(String), type: 'organization.updated' },
          error: `URL not allowed: url points to ${address}, ${PRIVATE_REASON}`,
        });
        events.push(res.event.id);
      }
      const attempts = await history(id);
      expect(attempts.map((a) => [a.eventId, a.attempt, a.httpStatus, a.error])).toEqual(
        cases
          .map(([, address], i) => [
            events[i],
            1,
            0,
            `URL not allowed: url points to ${address}, ${PRIVATE_REASON}`,
          ])
          .reverse(),
      );
      expect(attempts.every((a) => a.responseBody === null)).toBe(true);
      expect(receiver.received).toEqual([]);
    });

    it('fails a real event’s attempt to a stored loopback URL (httpStatus 0, kept for retry), no request', async () => {
      const { t } = app;
      const { owner, org, rename, retried } = await world(t, 'Loopback Later');
      const id = await registerInactive(owner.agent, org.id, PUBLIC_URL);
      await storeEndpoint(t, id, { url: receiver.url('/ssrf-event'), active: true });
      await rename('Renamed Later');
      expect(await retried(id)).toMatchObject({
        httpStatus: 0,
        responseBody: null,
        error: `URL not allowed: url points to 127.0.0.1, ${PRIVATE_REASON}`,
      });
      expect(receiver.received).toEqual([]);
    });

    it('refuses a host name that now resolves to a private address, no request', async () => {
      const { t } = app;
      const { owner, org, base, rename, test, retried } = await world(t, 'Resolved Privately');
      const lookup = spyResolver(t);
      try {
        lookup.mockResolvedValue([PUBLIC_ADDRESS]);
        const url = `http://hooks.private.test:${receiver.port}/ssrf-name`;
        const id = await registerInactive(owner.agent, org.id, url);

        lookup.mockResolvedValue(['10.1.2.3']);
        const res = await test(id);
        expect(res).toMatchObject({
          success: false,
          httpStatus: 0,
          error: `URL not allowed: ${NAME_REFUSED}`,
        });

        // Any refused address among the answers is enough; the receiver's own address here.
        lookup.mockResolvedValue([PUBLIC_ADDRESS, '127.0.0.1']);
        await owner.agent.patch(`${base}/${id}`).send({ active: true }).expect(200);
        await rename('Resolved Again');
        expect(await retried(id)).toMatchObject({
          httpStatus: 0,
          error: `URL not allowed: ${NAME_REFUSED}`,
        });
        expect(lookup).toHaveBeenCalledWith('hooks.private.test');
      } finally {
        lookup.mockRestore();
      }
      expect(receiver.received).toEqual([]);
    });

    it('refuses at connect a name that answered a public address to the check and loopback to the connection (DNS rebinding)', async () => {
      const { t } = app;
      const { owner, org, test, history } = await world(t, 'Rebound Inc.');
      const lookup = spyResolver(t);
      try {
        lookup.mockResolvedValue([PUBLIC_ADDRESS]);
        // The receiver's port: were the connection's lookup not checked, the request would land.
        const id = await registerInactive(
          owner.agent,
          org.id,
          `http://rebind.example.test:${receiver.port}/ssrf-rebind`,
        );
        lookup.mockClear();
        lookup
          .mockRejectedValue(new Error('no third lookup expected'))
          .mockResolvedValueOnce([PUBLIC_ADDRESS])
          .mockResolvedValueOnce(['127.0.0.1']);
        const res = await test(id);
        expect(res).toMatchObject({ success: false, httpStatus: 0 });
        expect(res.error).toBe(`EWEBHOOKADDRESS: ${NAME_REFUSED}`);
        // The URL check, then the connection's own lookup.
        expect(lookup.mock.calls).toEqual([['rebind.example.test'], ['rebind.example.test']]);
        const [attempt] = await history(id);
        expect(attempt).toMatchObject({ eventId: res.event.id, httpStatus: 0, error: res.error });
      } finally {
        lookup.mockRestore();
      }
      expect(receiver.received).toEqual([]);
    });
  });

  describeWithApp('with private URLs allowed (WEBHOOK_ALLOW_PRIVATE_URLS=true)', 'true', (app) => {
    it('still refuses a stored metadata address at each attempt, before connecting', async () => {
      const { t } = app;
      const { owner, org, rename, test, retried } = await world(t, 'Metadata Inc.');
      const id = await registerInactive(owner.agent, org.id, PUBLIC_URL);
      for (const [url, address] of [
        ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
        ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
        ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
      ]) {
        await storeEndpoint(t, id, { url });
        const res = await test(id);
        expect({ url, ...res }).toMatchObject({
          url,
          success: false,
          httpStatus: 0,
          responseTime: 0,
          error: `URL not allowed: url points to ${address}, ${METADATA_REASON}`,
        });
      }
      await storeEndpoint(t, id, { url: 'http://169.254.169.254/latest/meta-data', active: true });
      await rename('Metadata Event');
      expect(await retried(id)).toMatchObject({
        httpStatus: 0,
        error: `URL not allowed: url points to 169.254.169.254, ${METADATA_REASON}`,
      });
    });

    it('refuses a name resolving to a metadata address, at the check or at connect', async () => {
      const { t } = app;
      const { owner, org, test } = await world(t, 'Metadata Names');
      const lookup = spyResolver(t);
      try {
        lookup.mockResolvedValue(['127.0.0.1']);
        const named = await registerInactive(
          owner.agent,
          org.id,
          `http://meta.example.test:${receiver.port}/ssrf-meta`,
        );
        for (const address of ['169.254.169.254', 'fd00:ec2::254']) {
          lookup.mockResolvedValue(['127.0.0.1', address]);
          const res = await test(named);
          expect({ address, ...res }).toMatchObject({
            address,
            success: false,
            httpStatus: 0,
            responseTime: 0,
            error: `URL not allowed: ${NAME_REFUSED}`,
          });
        }

        // Loopback (allowed here) to the check, the metadata address to the connection.
        lookup.mockResolvedValue(['127.0.0.1']);
        const rebound = await registerInactive(
          owner.agent,
          org.id,
          `http://rebind-meta.example.test:${receiver.port}/ssrf-rebind-meta`,
        );
        lookup
          .mockRejectedValue(new Error('no third lookup expected'))
          .mockResolvedValueOnce(['127.0.0.1'])
          .mockResolvedValueOnce(['169.254.169.254']);
        const res = await test(rebound);
        expect(res).toMatchObject({ success: false, httpStatus: 0 });
        expect(res.error).toBe(`EWEBHOOKADDRESS: ${NAME_REFUSED}`);
        expect(receiver.received).toEqual([]);

        // The control: a name the resolver keeps on the receiver's address reaches it, so the
        // refusals above are the checks' and not a name the connection could not resolve.
        lookup.mockReset().mockResolvedValue(['127.0.0.1']);
        const reached = await registerInactive(
          owner.agent,
          org.id,
          `http://steady.example.test:${receiver.port}/ssrf-steady`,
        );
        expect(await test(reached)).toMatchObject({ success: true, httpStatus: 200 });
        expect(receiver.at('/ssrf-steady')).toHaveLength(1);
        expect(lookup.mock.calls.filter(([host]) => host === 'steady.example.test')).toHaveLength(
          3, // registration, the check before the attempt, the connection
        );
      } finally {
        lookup.mockRestore();
      }
    });

    it('never follows a redirect: a 3xx is a failed attempt and its Location is not requested', async () => {
      const { t } = app;
      const { owner, org, rename, test, retried } = await world(t, 'Redirected Inc.');
      receiver.respond = (r) =>
        r.path === '/ssrf-302'
          ? { status: 302, headers: { location: receiver.url('/ssrf-302-target') } }
          : r.path === '/ssrf-307'
            ? { status: 307, headers: { location: receiver.url('/ssrf-307-target') } }
            : { status: 200, body: 'ok' };
      try {
        const found = await registerInactive(owner.agent, org.id, receiver.url('/ssrf-302'));
        const res = await test(found);
        expect(res).toMatchObject({
          success: false,
          httpStatus: 302,
          error: 'the endpoint answered 302',
        });
        expect(receiver.at('/ssrf-302')).toHaveLength(1);
        expect(receiver.at('/ssrf-302-target')).toEqual([]);

        const temporary = await registerEndpoint(owner.agent, org.id, receiver, {
          path: '/ssrf-307',
        });
        await rename('Moved Temporarily');
        expect(await retried(temporary.id)).toMatchObject({ httpStatus: 307 });
        expect(receiver.at('/ssrf-307')).toHaveLength(1);
        expect(receiver.at('/ssrf-307-target')).toEqual([]);
      } finally {
        receiver.respond = () => ({ status: 200, body: 'ok' });
      }
    });
  });
});
