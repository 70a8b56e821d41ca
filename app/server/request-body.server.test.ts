import { describe, expect, it } from 'vitest';
import { readBodyUpTo } from './request-body.server';

/** A streamed body of `chunks` chunks of 1 KB, counting how many the reader pulled. */
function streamed(chunks: number) {
  const pulled = { count: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count++;
      controller.enqueue(new Uint8Array(1024).fill(97));
    },
  });
  return { request: new Request('http://shop.test/', { method: 'POST', body, duplex: 'half' } as RequestInit), pulled };
}

describe('reading a body up to a cap', () => {
  it('returns the whole body within the cap', async () => {
    const { request } = streamed(3);
    expect((await readBodyUpTo(request, 3 * 1024))?.length).toBe(3 * 1024);
  });

  it('stops reading as soon as the cap is passed', async () => {
    const { request, pulled } = streamed(10_000);
    expect(await readBodyUpTo(request, 4 * 1024)).toBeNull();
    expect(pulled.count).toBeLessThan(10);
  });

  it('refuses from the declared length without reading', async () => {
    const request = new Request('http://shop.test/', {
      method: 'POST',
      body: 'x'.repeat(2000),
      headers: { 'content-length': '2000' },
    });
    expect(await readBodyUpTo(request, 1000)).toBeNull();
  });
});
