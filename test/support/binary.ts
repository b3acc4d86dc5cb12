/** supertest: keep a binary body (a zip, a PDF) as a Buffer: `.buffer(true).parse(binary as never)`. */
export function binary(
  res: NodeJS.ReadableStream & { setEncoding(e: string): void },
  done: (err: Error | null, body: Buffer) => void,
) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}
