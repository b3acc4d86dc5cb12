import { Injectable } from '@nestjs/common';
import { DAY, Retention } from '../../scheduler';

/**
 * Once a day across instances, the conversations (their messages and steps with them) idle for
 * AGENT_CONVERSATION_RETENTION_DAYS go: no message added since. Every kind goes: a main or hook
 * conversation is made again on its next use.
 */
@Retention({
  owner: 'agent',
  name: 'agent:conversation-cleanup',
  table: 'agent_conversation',
  age: 'updated',
  olderThan: (env) => env.AGENT_CONVERSATION_RETENTION_DAYS * DAY,
})
@Injectable()
export class ConversationRetention {}
