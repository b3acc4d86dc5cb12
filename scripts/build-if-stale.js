#!/usr/bin/env node
// `npm start` builds before it serves; this skips the build when dist/ is newer than every
// source file, so a restart is quick. Plain JavaScript: it runs before anything is compiled.
const { statSync, readdirSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const built = join(root, 'dist', 'src', 'main.js');

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

const sources = ['src', 'libs', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];
const sourceTime = Math.max(...sources.map((p) => newest(join(root, p))));
if (existsSync(built) && statSync(built).mtimeMs > sourceTime) {
  console.log('dist/ is up to date: skipping the build');
  process.exit(0);
}
const result = spawnSync('npx', ['nest', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
