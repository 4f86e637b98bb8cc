// The WIRE server of the bench workers (echo-worker.mjs, fixed-worker.mjs): accepts the standard
// handshake, answers SUCCESS, then reads length-prefixed frames with the project's FrameReader and
// writes what `answer` makes of each payload, batched per read. Listens on 127.0.0.1:0 and posts
// its address to the parent thread.
import net from 'node:net';
import { parentPort } from 'node:worker_threads';

/** `FrameReader`: the project's class (loaded by the worker through jiti); `answer`: payload -> framed reply. */
export function serveWire(FrameReader, answer) {
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let handshake = Buffer.alloc(0);
    let reader;
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      if (!reader) {
        handshake = Buffer.concat([handshake, chunk]);
        if (handshake.length < 12) return;
        reader = new FrameReader();
        socket.write('SUCCESS\0');
        chunk = handshake.subarray(12);
      }
      const out = reader.push(chunk).map(answer);
      if (out.length) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
    });
  });
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ host: '127.0.0.1', port: server.address().port }));
  return server;
}
