import { Injectable, Logger } from '@nestjs/common';
import { HookTurns } from '../../agent';
import { ChatPosting } from '../../chat';

/**
 * Posts an agent's reply to the organization's team chat: always to the team's private channel,
 * whose members may read the cap table (ChatPosting), never where `to` or the main conversation's
 * last channel point (a channel Shareholders may be in): a reply carries cap-table facts. Nothing
 * when chat is off or the organization has no team yet; the channel used becomes the main
 * conversation's last one.
 */
@Injectable()
export class HookDelivery {
  private readonly logger = new Logger('Hooks');

  constructor(
    private readonly posting: ChatPosting,
    private readonly turns: HookTurns,
  ) {}

  async deliver(organizationId: string, text: string, to?: string): Promise<boolean> {
    const posted = await this.posting.post(organizationId, text);
    if (!posted) return false;
    if (to !== undefined && to !== posted.channel) {
      this.logger.debug(`hook reply for ${to} posted to the private channel instead`);
    }
    const main = await this.turns.mainDelivery(organizationId);
    await this.turns.setLastChannel(main.conversationId, posted.channel);
    return true;
  }
}
