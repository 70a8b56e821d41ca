import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/*
 * Requests Node refuses before the app sees them (headers over 16 KB, malformed HTTP) get a short
 * French answer instead of Node's empty English one.
 */
export function answerClientErrorsInFrench(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that went away needs no answer (Node's own advice for this event).
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const body = tooLarge
      ? 'Requête refusée : son adresse ou ses en-têtes sont trop longs.'
      : 'Requête invalide : elle n’a pas pu être lue.';
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
