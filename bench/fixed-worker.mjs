// A minimal server for bench/fuzz-only.ts, in a worker thread: it answers every WIRE query or
// HTTP request with one fixed valid answer, so that the fuzzer's cost is measured, not a
// reference's. WIRE: the standard handshake gets SUCCESS; each frame the answer its query type
// is owed (START -> SUCCESS_ATOM, NOREPLY_WAIT -> WAIT_COMPLETE, SERVER_INFO -> SERVER_INFO,
// STOP -> an empty SUCCESS_SEQUENCE, anything else -> CLIENT_ERROR), with its token.
// HTTP: 200 and a fixed small body of the protocol's type.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { createJiti } from 'jiti';
import { serveWire } from './lib/wire-bench-server.mjs';

const jiti = createJiti(import.meta.url);

if (workerData.protocol === 'wire') {
  const { FrameReader } = await jiti.import('../src/clients/wire/frame-reader.ts');
  const { decodeQuery, encodeResponse, frame, toDatum } = await jiti.import('../src/clients/wire/codec.ts');
  const { QueryType, ResponseType } = await jiti.import('../src/clients/wire/schema.ts');
  const error = [toDatum('bench')];
  const answer = (p) => {
    let q;
    try {
      q = decodeQuery(p);
    } catch {
      return frame(encodeResponse({ type: ResponseType.CLIENT_ERROR, token: 0n, response: error }));
    }
    const token = q.token ?? 0n;
    switch (q.type) {
      case QueryType.START:
        return frame(encodeResponse({ type: ResponseType.SUCCESS_ATOM, token, response: [toDatum(null)] }));
      case QueryType.STOP:
        return frame(encodeResponse({ type: ResponseType.SUCCESS_SEQUENCE, token, response: [] }));
      case QueryType.NOREPLY_WAIT:
        return frame(encodeResponse({ type: ResponseType.WAIT_COMPLETE, token, response: [] }));
      case QueryType.SERVER_INFO:
        return frame(encodeResponse({ type: ResponseType.SERVER_INFO, token, response: [toDatum({ name: 'bench' })] }));
      default:
        return frame(encodeResponse({ type: ResponseType.CLIENT_ERROR, token, response: error }));
    }
  };
  serveWire(FrameReader, answer);
} else {
  const [type, body] = workerData.protocol === 'cloud' ? ['application/json', '{"id":"bench1","data":[],"page":1,"pages":1,"results":0}'] : ['application/xml', '<status code="ok"><summary>Ok</summary></status>'];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': type }).end(body));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ host: '127.0.0.1', port: server.address().port }));
}
