import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * The HTTP side of a graceful stop. Node's `server.close()` stops accepting and closes the idle
 * keep-alive connections, but a connection busy with a request stays open after its answer for
 * the next one, and would be cut mid-request once the process exits. So, once draining: every
 * answer not yet begun says `Connection: close` (Node then closes its connection after it, and
 * the client knows not to reuse it), and a connection that becomes idle after an answer already
 * under way is closed as soon as it is idle.
 */
export class HttpDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;

  constructor(private readonly server: Server) {
    // Before the app's own listener: the header must be set before anything is answered.
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) =>
      this.track(res),
    );
  }

  /** Requests received and not yet answered. */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Stops accepting; resolves once every connection has closed (every held request answered). */
  drain(): Promise<void> {
    this.draining = true;
    for (const res of this.inFlight) this.closeAfter(res);
    return new Promise<void>((done) =>
      // One turn later: a request already received on an idle keep-alive connection (its bytes
      // read in this turn) is then a request held, answered, rather than cut with the idle
      // connections that `close()` ends.
      setImmediate(() => this.server.close(() => done())),
    );
  }

  private track(res: ServerResponse) {
    this.inFlight.add(res);
    if (this.draining) this.closeAfter(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      // The connection is marked idle once the answer is written: look again after that.
      if (this.draining) setImmediate(() => this.server.closeIdleConnections());
    });
  }

  private closeAfter(res: ServerResponse) {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  }
}
