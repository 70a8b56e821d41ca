// Sends anonymous posts of `bytes` bytes to each path, `concurrent` at a time per path, from a
// process of its own (so that writing them never blocks the test's event loop, which times
// /healthz), and prints one JSON line: each answer's status and how long it took, in ms.
// Usage: node flood-client.mjs <base url> <bytes> <concurrent> <path>...
import http from 'node:http';

const [base, bytesArg, concurrentArg, ...paths] = process.argv.slice(2);
const bytes = Number(bytesArg);
const concurrent = Number(concurrentArg);
const chunk = Buffer.alloc(1024 * 1024, 0x61);

function flood(path) {
  const started = performance.now();
  const url = new URL(path, base);
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(bytes),
          'tus-resumable': '1.0.0',
          'upload-length': String(bytes),
          origin: base,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ path, status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    // The refusal closes the connection while we still send: that is the point.
    request.on('error', () => resolve({ path, status: 0, ms: performance.now() - started }));
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', write);
          return;
        }
      }
      request.end();
    };
    write();
  });
}

const answers = await Promise.all(paths.flatMap((path) => Array.from({ length: concurrent }, () => flood(path))));
process.stdout.write(`${JSON.stringify(answers)}\n`);
process.exit(0);
