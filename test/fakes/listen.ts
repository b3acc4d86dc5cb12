import type { Server } from 'node:net';
import { AddressInfo } from 'node:net';

/** Starts `server` on 127.0.0.1 at a free port; answers the port. */
export function listenOnFreePort(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
