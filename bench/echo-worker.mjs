// The loopback baseline's server (bench/wire-fuzz.ts): accepts the standard handshake, answers
// SUCCESS, then echoes every length-prefixed frame as it is — same framing (the project's
// FrameReader), no protobuf, no oracle. Runs in a worker thread like the fuzzed wire-ref.
import { createJiti } from 'jiti';
import { serveWire } from './lib/wire-bench-server.mjs';

const jiti = createJiti(import.meta.url);
const { FrameReader } = await jiti.import('../src/clients/wire/frame-reader.ts');
const { frame } = await jiti.import('../src/clients/wire/codec.ts');

serveWire(FrameReader, (p) => frame(p));
