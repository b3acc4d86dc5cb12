import { Injectable } from '@nestjs/common';
import { HookTurns } from '../../agent';
import { ChatPosting } from '../../chat';

/**
 * Posts an agent's reply to the organization's team chat: to `to`, else where the main
 * conversation last posted, else the team's default channel. Nothing when chat is off or the
 * organization has no team yet; the channel used becomes the main conversation's last one.
 */
@Injectable()
export class HookDelivery {
  constructor(
    private readonly posting: ChatPosting,
    private readonly turns: HookTurns,
  ) {}

  async deliver(organizationId: string, text: string, to?: string): Promise<boolean> {
    // Read now, not at the start of the turn: a run may have posted elsewhere meanwhile.
    const main = await this.turns.mainDelivery(organizationId);
    const channel = to ?? main.lastChannel ?? this.posting.defaultChannel;
    const posted = await this.posting.post(organizationId, text, channel);
    if (!posted) return false;
    await this.turns.setLastChannel(main.conversationId, channel);
    return true;
  }
}
