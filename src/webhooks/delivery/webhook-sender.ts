import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { OutboundHttp, OutboundHttpError } from '../../common';
import { Env } from '../../config';
import { WebhookHostResolver } from '../host-resolver';
import { NAME_NOT_ALLOWED, refusedAddress, refusedWebhookUrl } from '../url-policy';
import { RESPONSE_BODY_BYTES } from './webhook-attempt.entity';

/** Spec section 6: an attempt without a complete response within 30 seconds failed. */
export const DELIVERY_TIMEOUT_MS = 30_000;

export interface SendResult {
  /** The status received; 0 when no response came. */
  httpStatus: number;
  /** Milliseconds from sending to the end of the response or the failure. */
  responseTime: number;
  /** The first RESPONSE_BODY_BYTES of the body. */
  responseBody: string | null;
  /** Why no response came. */
  error: string | null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Sends one signed delivery, on the outbound base (once: the queue retries). The URL is checked
 * again before each attempt, and the addresses a host name resolves to are checked at connect
 * time by the connection's own lookup, so a name that changes its answer between the check and
 * the request (DNS rebinding) reaches no private address. Redirects are never followed: a 3xx is a
 * failed attempt like any other non-2xx. Logs show the URL without its path (often the
 * receiver's secret).
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly http: OutboundHttp;
  private readonly allowPrivate: boolean;

  constructor(
    private readonly env: Env,
    private readonly resolver: WebhookHostResolver,
  ) {
    this.allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_URLS === true;
    this.http = new OutboundHttp({
      provider: 'webhooks',
      timeoutMs: DELIVERY_TIMEOUT_MS,
      redirect: 'manual',
      secretPath: true,
      agent: {
        keepAliveTimeout: 4_000,
        connections: 4,
        connect: { lookup: this.lookup, timeout: 10_000 },
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      },
    });
  }

  async onModuleDestroy() {
    await this.http.close();
  }

  /** Why the URL may not be delivered to now; undefined when it may. */
  refused(url: string): Promise<string | undefined> {
    return refusedWebhookUrl(
      url,
      { production: this.env.NODE_ENV === 'production', allowPrivate: this.allowPrivate },
      (host) => this.resolver.resolve(host),
    );
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refused = await this.refused(url);
    if (refused) {
      return {
        httpStatus: 0,
        responseTime: 0,
        responseBody: null,
        error: `URL not allowed: ${refused}`,
      };
    }
    try {
      const answer = await this.http.send({
        method: 'POST',
        url: withoutUserInfo(url),
        headers,
        body,
        repeatable: false,
        accept: () => true,
        maxBodyBytes: RESPONSE_BODY_BYTES,
      });
      return {
        httpStatus: answer.status,
        responseTime: elapsed(),
        responseBody: answer.text,
        error: null,
      };
    } catch (err) {
      const timedOut = err instanceof OutboundHttpError && err.failure === 'timeout';
      const reason = timedOut
        ? `no response within ${DELIVERY_TIMEOUT_MS / 1000} seconds`
        : describeError(err instanceof OutboundHttpError ? err.cause : err);
      return { httpStatus: 0, responseTime: elapsed(), responseBody: null, error: reason };
    }
  }

  /**
   * net.connect's lookup: every address the name has, refused when any is not allowed. A refusal
   * and a failed lookup say the same (the attempt's error is shown to the organization's admins):
   * nothing tells how the name resolved.
   */
  private readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: LookupCallback,
  ): void => {
    const refuse = () => {
      const err: NodeJS.ErrnoException = new Error(NAME_NOT_ALLOWED);
      err.code = 'EWEBHOOKADDRESS';
      callback(err, []);
    };
    this.resolver.resolve(hostname).then((addresses) => {
      if (!addresses.length || addresses.some((a) => refusedAddress(a, this.allowPrivate))) {
        return refuse();
      }
      const answers = addresses.map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }));
      if (options.all) return callback(null, answers);
      callback(null, answers[0].address, answers[0].family);
    }, refuse);
  };
}

/**
 * A URL's user info was never sent (undici's request dropped it: no Authorization came of it);
 * fetch refuses a URL carrying one, so it is dropped here.
 */
function withoutUserInfo(url: string): URL {
  const target = new URL(url);
  target.username = '';
  target.password = '';
  return target;
}

/** The connection's own error (fetch wraps it: `fetch failed`, the error as its cause). */
function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const cause = e.cause ?? e;
  const text = [cause.code, cause.message].filter(Boolean).join(': ');
  return (text || String(err)).slice(0, 500);
}
