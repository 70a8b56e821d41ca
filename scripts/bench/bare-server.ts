import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/*
 * The reference of the pages bench: a bare node:http server answering every request with the same
 * bytes from memory (a page fetched from the shop), with the shop's content type. Nothing a real
 * page needs (routing, rendering, headers, cache lookup) is done: the limit of this runtime.
 * argv: <file of the body> <content type>. Prints its port once listening.
 */

const [file, contentType] = process.argv.slice(2);
if (!file || !contentType) throw new Error('usage: bare-server.ts <body file> <content type>');
const body = readFileSync(file);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : '');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
