import type Redis from 'ioredis';

/**
 * The Redis Cluster slot of a key: CRC16 (XMODEM) of the key, or of its hash tag (the text
 * between the first `{` and the next `}`, when not empty), modulo 16384.
 */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc % 16384;
}

/** What a client was seen to send: commands (or MULTI blocks) and those whose keys span slots. */
export interface SlotLog {
  commands: string[];
  crossSlot: string[];
}

interface SentCommand {
  name: string;
  getKeys(): (string | Buffer)[];
}

/**
 * Watches every command `client` sends as a Redis Cluster would take it: a command, or a
 * MULTI … EXEC transaction (ioredis sends its commands one after another, uninterrupted), whose
 * keys fall in more than one slot is logged in `crossSlot` (a cluster refuses it: CROSSSLOT).
 * Scripts count by their KEYS.
 */
export function watchSlots<T extends Redis>(client: T, log: SlotLog): T {
  const send = client.sendCommand.bind(client) as (...args: unknown[]) => unknown;
  let block: { names: string[]; keys: string[] } | null = null;
  const check = (names: string[], keys: string[]) => {
    const described = `${names.join(' ')} [${keys.join(', ')}]`;
    log.commands.push(described);
    if (new Set(keys.map(keySlot)).size > 1) log.crossSlot.push(described);
  };
  (client as unknown as { sendCommand: (...args: unknown[]) => unknown }).sendCommand = (
    ...args: unknown[]
  ) => {
    const command = args[0] as SentCommand;
    const name = command.name.toLowerCase();
    const keys = command.getKeys().map(String);
    if (name === 'multi') block = { names: [], keys: [] };
    else if ((name === 'exec' || name === 'discard') && block) {
      check(['multi', ...block.names], block.keys);
      block = null;
    } else if (block) {
      block.names.push(name);
      block.keys.push(...keys);
    } else check([name], keys);
    return send(...args);
  };
  return client;
}
