import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
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
 * Sends one signed delivery. The URL is checked again before each attempt, and the addresses a
 * host name resolves to are checked at connect time by the connection's own lookup, so a name
 * that changes its answer between the check and the request (DNS rebinding) reaches no private
 * address. Redirects are never followed: a 3xx is a failed attempt like any other non-2xx.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly agent: Agent;
  private readonly allowPrivate: boolean;

  constructor(
    private readonly env: Env,
    private readonly resolver: WebhookHostResolver,
  ) {
    this.allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_URLS === true;
    this.agent = new Agent({
      keepAliveTimeout: 4_000,
      connections: 4,
      connect: { lookup: this.lookup, timeout: 10_000 },
    });
  }

  async onModuleDestroy() {
    await this.agent.close();
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
    const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal,
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      });
      const responseBody = await firstBytes(res.body, RESPONSE_BODY_BYTES);
      return { httpStatus: res.statusCode, responseTime: elapsed(), responseBody, error: null };
    } catch (err) {
      const reason = signal.aborted
        ? `no response within ${DELIVERY_TIMEOUT_MS / 1000} seconds`
        : describeError(err);
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

/** Reads at most `limit` bytes of a body as text and drops the rest unread. */
async function firstBytes(body: AsyncIterable<Buffer> & { destroy(): void }, limit: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const cause = e.cause ?? e;
  const text = [cause.code, cause.message].filter(Boolean).join(': ');
  return (text || String(err)).slice(0, 500);
}
