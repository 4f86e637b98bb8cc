// WIRE on the proof matrix (see matrix.ts): the trivial servers, the suite twice on one server, and
// busy (shuffled at concurrency 32 with latency, three seeds).
import { proveBusy, proveOnTrivialServers, proveTwiceOnOneServer } from './matrix.ts';

await proveOnTrivialServers('wire');
await proveTwiceOnOneServer('wire');
await proveBusy('wire', [1, 2, 3]);
