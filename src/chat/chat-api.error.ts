/** What a call that got no answer from the messaging server failed on. */
export type ChatTransportFailure = 'network' | 'timeout';

/**
 * A call to the messaging server that did not succeed. `status` is the server's HTTP status, or 0
 * when no answer came (`id` then `network` or `timeout`). Otherwise `id` is the server's error id
 * (`app.user.save.username_exists.app_error` ...), what callers branch on since messages are
 * translated; '' when the body was not the server's error shape (a proxy's page, say).
 */
export class ChatApiError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
    /** The server's `request_id`, to find the request in its logs. */
    readonly requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ChatApiError';
  }

  /** No answer came: the server is unreachable or slow, not refusing. */
  get transport(): boolean {
    return this.status === 0;
  }
}

/**
 * The messaging server has an account with the user's e-mail address that the service must not
 * take over (a system admin's: its token would give the user the whole server).
 */
export class ChatAccountNotAdoptable extends Error {
  constructor(readonly chatUserId: string) {
    super(`the chat account ${chatUserId} with this e-mail address is a system admin's`);
    this.name = 'ChatAccountNotAdoptable';
  }
}
