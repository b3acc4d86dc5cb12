import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { listenOnFreePort } from './listen';

/** One POST the receiver got: its path, headers (lower-case names) and raw body. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The sender's port of the connection (which process sent it, for tests with several). */
  remotePort?: number;
  /** The parsed envelope. */
  event: {
    id: string;
    type: string;
    data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> };
  } & Record<string, unknown>;
}

/** How the receiver answers a request: a status and an optional body, or nothing (hang). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/**
 * A consumer's HTTP server on 127.0.0.1 for outbound webhook tests: records every request and
 * answers as `respond` says (200 `ok` by default).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  respond: (req: Received) => Answer | Promise<Answer> = () => ({ status: 200, body: 'ok' });
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const port = await listenOnFreePort(server);
    const receiver = new WebhookReceiver(server, port);
    server.on('request', (req, res) => void receiver.handle(req, res));
    return receiver;
  }

  url(path = '/hook') {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The requests to one path. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close() {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let event: Received['event'];
    try {
      event = JSON.parse(body) as Received['event'];
    } catch {
      event = { id: '', type: '', data: { object: {}, previous_attributes: {} } };
    }
    const received: Received = {
      path: req.url ?? '/',
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.join(',') : (v ?? ''),
        ]),
      ),
      body,
      remotePort: req.socket.remotePort,
      event,
    };
    this.received.push(received);
    const answer = await this.respond(received);
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  }
}
