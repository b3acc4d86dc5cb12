import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request context, so every log line written while serving a request names its id. */
export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;
