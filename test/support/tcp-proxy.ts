import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL, Redis) that a test can cut: `cut()` drops every
 * open connection and refuses new ones until `restore()`, the way a network partition or a
 * server restart looks to the service.
 */
export class TcpProxy {
  port = 0;
  private server?: Server;
  private readonly open = new Set<Socket>();
  private down = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Proxies to the host and port of a `postgres://` or `redis://` URL. */
  static forUrl(url: string): TcpProxy {
    const u = new URL(url);
    return new TcpProxy(u.hostname || '127.0.0.1', Number(u.port));
  }

  /** The URL with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  start(): Promise<void> {
    this.server = createServer((client) => this.pipe(client));
    return new Promise((resolve) =>
      this.server!.listen(0, '127.0.0.1', () => {
        this.port = (this.server!.address() as { port: number }).port;
        resolve();
      }),
    );
  }

  /** Drops every connection and refuses new ones. */
  cut() {
    this.down = true;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  restore() {
    this.down = false;
  }

  get connections() {
    return this.open.size / 2;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private pipe(client: Socket) {
    if (this.down) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    this.open.add(client);
    this.open.add(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.open.delete(client);
      this.open.delete(upstream);
    };
    for (const s of [client, upstream]) {
      s.on('close', end);
      s.on('error', end);
    }
  }
}
