import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The text of every TypeScript source file under `dir` (tests excluded). */
export function sourceTexts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceTexts(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')
        ? [readFileSync(join(dir, e.name), 'utf8')]
        : [],
  );
}
