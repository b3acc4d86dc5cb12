/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by package (node_modules/<name>),
 * by our own folder (src/<module>), or by V8/Node internals, and the top functions.
 *   npx ts-node --transpile-only scripts/bench/profile-summary.ts <file.cpuprofile>
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarise(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  // Busy time only: the share of each part in what the process did.
  for (const [id] of self) if (byId.get(id)!.callFrame.functionName === '(idle)') self.delete(id);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, time] of self) {
    const frame = byId.get(id)!.callFrame;
    const group = groupOf(frame.url, frame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + time);
    const fn = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + time);
  }
  const pct = (t: number) => `${((100 * t) / total).toFixed(1)}%`;
  const lines = ['self time by group (busy time only):'];
  for (const [g, t] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(t).padStart(6)} ${g}`);
  lines.push('top functions:');
  for (const [f, t] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(t).padStart(6)} ${f}`);
  return lines.join('\n');
}

function groupOf(url: string, fn: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/dist\/(src\/[^/]+|libs\/[^/]+)/.exec(url);
  if (own) return own[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  return url;
}

const shortUrl = (url: string) => url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '');

if (require.main === module) console.log(summarise(process.argv[2]));
