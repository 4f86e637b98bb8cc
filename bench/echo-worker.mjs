// The loopback baseline's server (bench/wire-fuzz.ts): accepts the standard handshake, answers
// SUCCESS, then echoes every length-prefixed frame as it is — same framing (the project's
// FrameReader), no protobuf, no oracle. Runs in a worker thread like the fuzzed wire-ref.
import net from 'node:net';
import { parentPort } from 'node:worker_threads';
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
const { FrameReader } = await jiti.import('../src/clients/wire/frame-reader.ts');
const { frame } = await jiti.import('../src/clients/wire/codec.ts');

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
    const out = reader.push(chunk).map((p) => frame(p));
    if (out.length) socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ host: '127.0.0.1', port: server.address().port }));
