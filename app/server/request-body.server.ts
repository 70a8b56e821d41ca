/*
 * A request's body read up to a cap: the reading stops (and the stream is cancelled) as soon as
 * the bytes exceed it, instead of reading everything and comparing afterwards. server/body-limits.ts
 * already refuses larger bodies before any route runs; this keeps a route safe on its own.
 */

/** The body's bytes, or null when it holds more than `maxBytes`. */
export async function readBodyUpTo(request: Request, maxBytes: number): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body.cancel().catch(() => undefined);
    return null;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
