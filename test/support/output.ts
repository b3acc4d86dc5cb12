/**
 * Records every chunk the process writes to stdout and stderr (still writing it through), so a
 * test can check that no secret ever reached the logs. `restore` puts the streams back.
 */
export function captureOutput(): { text: () => string; restore: () => void } {
  const written: string[] = [];
  const restores: (() => void)[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restores.push(() => (stream.write = original));
  }
  return { text: () => written.join(''), restore: () => restores.forEach((r) => r()) };
}
