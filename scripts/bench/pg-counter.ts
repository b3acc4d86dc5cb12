import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts what clients send: round trips (a simple
 * `Query`, or a `Sync` closing an extended-protocol exchange) and statements (`Query` and
 * `Execute`). The bench points the service at it, so SQL per request is counted, not guessed.
 */
export class PgCounter {
  roundTrips = 0;
  statements = 0;
  private server?: Server;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  reset() {
    this.roundTrips = 0;
    this.statements = 0;
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

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private pipe(client: Socket) {
    const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      // The startup (and SSL request) messages have no type byte; everything after does.
      while (buffered.length >= 5) {
        if (!started) {
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          buffered = buffered.subarray(length);
          if (code !== 80877103) started = true; // not an SSLRequest
          continue;
        }
        const type = String.fromCharCode(buffered[0]);
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) break;
        if (type === 'Q') {
          this.roundTrips++;
          this.statements++;
        } else if (type === 'E') this.statements++;
        else if (type === 'S') this.roundTrips++;
        buffered = buffered.subarray(length + 1);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  }
}
