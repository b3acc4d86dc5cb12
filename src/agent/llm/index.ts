// The agent's language model: the client and the Messages API types the chat loop works with.
import type Anthropic from '@anthropic-ai/sdk';

export { LlmClient, MAX_RETRY_WAIT_MS } from './llm-client';
export type { LlmCallOptions, LlmMessageParams } from './llm-client';

export type Message = Anthropic.Message;
export type MessageParam = Anthropic.MessageParam;
export type ContentBlock = Anthropic.ContentBlock;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type TextBlock = Anthropic.TextBlock;
export type TextBlockParam = Anthropic.TextBlockParam;
export type Tool = Anthropic.Tool;
export type ToolChoice = Anthropic.ToolChoice;
export type ToolUseBlock = Anthropic.ToolUseBlock;
export type ToolResultBlockParam = Anthropic.ToolResultBlockParam;
export type StopReason = Anthropic.StopReason;
