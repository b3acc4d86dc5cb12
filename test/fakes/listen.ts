import type { Server as HttpServer, ServerResponse } from 'node:http';
import type { Server } from 'node:net';
import { AddressInfo } from 'node:net';

/** Starts `server` on 127.0.0.1 at a free port; answers the port. */
export function listenOnFreePort(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** Closes a fake's server: the answers it holds back (`hang` faults) first, then every connection. */
export async function closeServer(
  server: HttpServer | undefined,
  hanging: Set<ServerResponse>,
): Promise<void> {
  for (const res of hanging) res.destroy();
  hanging.clear();
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) =>
    server.close((err) => (err ? reject(err) : resolve())),
  );
}
