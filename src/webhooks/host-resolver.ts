import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';

/** Resolves a webhook's host name to all its addresses; a class of its own so tests replace it. */
@Injectable()
export class WebhookHostResolver {
  async resolve(host: string): Promise<string[]> {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  }
}
