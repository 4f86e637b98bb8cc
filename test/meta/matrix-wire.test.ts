// WIRE: every check on the proof matrix's trivial servers (see matrix.ts).
import { proveOnTrivialServers } from './matrix.ts';

await proveOnTrivialServers('wire');
