import type { HookMapping, HookPresetName } from '../../config';

/** Built-in mappings HOOKS_PRESETS turns on; tried after HOOKS_MAPPINGS. */
export const PRESETS: Record<HookPresetName, HookMapping> = {
  // A Gmail watcher (e.g. gog's Pub/Sub push) posting `{messages: [{id, from, subject, ...}]}`.
  gmail: {
    match: { path: 'gmail' },
    action: 'agent',
    name: 'Gmail',
    sessionKey: 'hook:gmail:{{messages[0].id}}',
    messageTemplate: [
      'New email from {{messages[0].from}}',
      'Subject: {{messages[0].subject}}',
      '{{messages[0].snippet}}',
      '{{messages[0].body}}',
    ].join('\n'),
  },
};
