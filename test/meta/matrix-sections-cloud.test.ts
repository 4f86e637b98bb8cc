// CLOUD on section-only servers (see matrix.ts): no check fails for a route or term its file does not own.
import { proveOnSectionOnlyServers } from './matrix.ts';

await proveOnSectionOnlyServers('cloud');
