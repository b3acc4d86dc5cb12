import type Anthropic from '@anthropic-ai/sdk';
import { SELF_PERMISSIONS, type PermissionName } from '../../organizations';
import type { AgentConversation } from '../store/agent-conversation.entity';
import { isPersonMessage, type StoredMessage } from '../store/conversations';
import { TOOLS } from '../tools/tool-catalogue';

type Block = Record<string, unknown> & { type?: string };

/** Who a prompt is built for. */
export interface PromptCaller {
  userId: string;
  permissions: ReadonlySet<string>;
}

export interface PromptInput {
  /** The stored messages, oldest first, starting at a person's (Conversations.window). */
  window: StoredMessage[];
  caller: PromptCaller;
  conversation: Pick<AgentConversation, 'kind' | 'userId'>;
  /** The system text, given whether other members' messages are in the prompt. */
  system: (othersPresent: boolean) => string;
  /** AGENT_MAX_PROMPT_CHARS: the system text and the messages' JSON together. */
  maxChars: number;
}

export interface Prompt {
  system: string;
  messages: Anthropic.MessageParam[];
  /**
   * A message of another person is in it: requests there are proposals, so every write of the
   * turn waits for the caller's confirmation.
   */
  othersPresent: boolean;
  /**
   * Even the latest turn alone, its tool results left out, is over the bound (the model's own
   * blocks of this turn, which must go back whole, are too many): nothing more can be asked.
   */
  over: boolean;
}

/** What stands in the prompt for a block the caller may not read. */
export const withheld = (permission: string) =>
  `[withheld: this was produced under ${permission}, which the person asking now does not hold]`;

/** What stands for a tool result left out to keep the prompt within its bound. */
const LEFT_OUT = '[left out: the prompt reached its size limit]';

/**
 * The prompt of one round, from the stored messages, for the caller:
 * - a block produced under a permission the caller lacks (a tool's route permission, kept with
 *   the message; for older messages, the permission of the tool that answered) is replaced by a
 *   one-line placeholder naming it; a tool result stays a `tool_result` of the same id, so every
 *   call keeps its answer. "…OrSelf" results stay visible to the person whose turn ran them (the
 *   route answered them their own records only);
 * - another person's messages are wrapped in `<member-message>` markers naming them and their
 *   role (a message of a shared conversation nobody is known to have written counts as
 *   another's);
 * - the oldest messages are left out (a whole turn at a time, so the prompt starts at a person's
 *   message) until the system text and the messages' JSON fit in `maxChars`; if the latest turn
 *   alone does not, its oldest tool results are left out (and if that is not enough, `over`).
 *   Runs of one role go as one message.
 */
export function buildPrompt(input: PromptInput): Prompt {
  const { window, caller } = input;
  const toolOf = new Map<string, string>();
  for (const m of window) {
    if (m.role !== 'assistant') continue;
    for (const b of m.content as Block[]) {
      if (b.type === 'tool_use') toolOf.set(String(b.id), String(b.name));
    }
  }
  const views = window.map((m) => {
    const author = authorOf(m, input.conversation);
    const other = m.role === 'user' && author !== caller.userId;
    const content = (m.content as Block[]).map((block, i) => {
      const permission = m.permissions ? m.permissions[i] : legacyPermission(block, toolOf);
      if (permission && !mayRead(caller, permission, author)) return placeholder(block, permission);
      if (other && block.type === 'text') {
        return { ...block, text: memberMessage(m, String(block.text)) };
      }
      return block;
    });
    return { role: m.role, content, other, person: isPersonMessage(m) };
  });

  const sizeOf = (v: (typeof views)[number]) =>
    JSON.stringify({ role: v.role, content: v.content }).length + 1;
  const sizes = views.map(sizeOf);
  const fits = (start: number) => {
    const othersPresent = views.slice(start).some((v) => v.other);
    const system = input.system(othersPresent);
    const chars = system.length + 2 + sizes.slice(start).reduce((a, b) => a + b, 0);
    return { system, othersPresent, over: chars - input.maxChars };
  };
  const starts = views.flatMap((v, i) => (v.person ? [i] : []));
  let start = starts.find((i) => fits(i).over <= 0);
  if (start === undefined) {
    start = starts[starts.length - 1] ?? 0;
    leaveOutToolResults(views.slice(start), fits(start).over);
    for (let i = start; i < views.length; i++) sizes[i] = sizeOf(views[i]);
  }
  const { system, othersPresent, over } = fits(start);
  return { system, othersPresent, messages: merged(views.slice(start)), over: over > 0 };
}

/** The person a `user` message is theirs: stored, else the owner of a chat (older messages). */
function authorOf(m: StoredMessage, conversation: PromptInput['conversation']): string | null {
  if (m.role !== 'user') return null;
  return m.authorId ?? (conversation.kind === 'chat' ? conversation.userId : null);
}

/** A tool result stored before permissions were kept: its tool's route permission. */
function legacyPermission(block: Block, toolOf: Map<string, string>): string | null {
  if (block.type !== 'tool_result') return null;
  const name = toolOf.get(String(block.tool_use_id));
  // A result whose call is out of sight is withheld from all but holders of the widest reading.
  return TOOLS.find((t) => t.name === name)?.permission ?? 'canViewCapTable';
}

function mayRead(caller: PromptCaller, permission: string, author: string | null): boolean {
  if (caller.permissions.has(permission)) return true;
  return SELF_PERMISSIONS.has(permission as PermissionName) && author === caller.userId;
}

function placeholder(block: Block, permission: string): Block {
  if (block.type === 'tool_result') {
    return { type: 'tool_result', tool_use_id: block.tool_use_id, content: withheld(permission) };
  }
  return { type: 'text', text: withheld(permission) };
}

/** Another member's words, marked as theirs; a marker inside cannot close its block. */
function memberMessage(m: StoredMessage, text: string): string {
  const attribute = (value: string | null, fallback: string) =>
    (value ?? fallback).replace(/["<>\n\r]/g, ' ').slice(0, 200);
  const safe = text.replace(/<\/?member-message/gi, (tag) => tag.replace('<', '‹'));
  const from = attribute(m.authorName, m.authorId ? 'another member' : 'an unknown member');
  const role = attribute(m.authorRole, 'unknown');
  return `<member-message from="${from}" role="${role}">\n${safe}\n</member-message>`;
}

/** Leaves out the oldest tool results of `views` until `over` characters are saved. */
function leaveOutToolResults(views: { content: Block[] }[], over: number) {
  let left = over;
  for (const view of views) {
    view.content = view.content.map((block) => {
      if (left <= 0 || block.type !== 'tool_result') return block;
      const smaller = { type: 'tool_result', tool_use_id: block.tool_use_id, content: LEFT_OUT };
      const saved = JSON.stringify(block).length - JSON.stringify(smaller).length;
      if (saved <= 0) return block;
      left -= saved;
      return smaller;
    });
  }
}

/** Runs of one role as one message: the roles alternate, a round's results first. */
function merged(views: { role: 'user' | 'assistant'; content: Block[] }[]) {
  const messages: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const { role, content } of views) {
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content = [...last.content, ...content];
    else messages.push({ role, content: [...content] });
  }
  // The blocks are the Messages API's own, as stored from its answers and our rounds.
  return messages as unknown as Anthropic.MessageParam[];
}
