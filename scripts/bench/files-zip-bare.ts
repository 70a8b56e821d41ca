import { once } from 'node:events';
import fs from 'node:fs';
import { createServer } from 'node:http';

/*
 * The reference of the ZIP bench: a bare node:http server streaming the same files, concatenated,
 * read from disk one after the other with backpressure, under their total Content-Length. Nothing
 * the shop does (access check, database, ZIP headers) is done: the limit of this runtime and disk.
 * argv: <manifest.json> (the files' paths and sizes). Prints its port once listening.
 */

const [manifestPath] = process.argv.slice(2);
if (!manifestPath) throw new Error('usage: files-zip-bare.ts <manifest.json>');
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { files: Array<{ path: string; size: number }> };
const total = manifest.files.reduce((sum, file) => sum + file.size, 0);

const server = createServer(async (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
  try {
    for (const file of manifest.files) {
      for await (const chunk of fs.createReadStream(file.path, { highWaterMark: 1024 * 1024 })) {
        if (!res.write(chunk)) await once(res, 'drain');
      }
    }
    res.end();
  } catch {
    res.destroy();
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : '');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
