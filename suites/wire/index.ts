// The WIRE suite: one file per section of ../shared/spec/wire-protocol.md, in document order.
import type { Check } from '../../src/core/check.ts';
import * as queryMessage from './query-message.ts';
import * as responseMessage from './response-message.ts';
import * as backtraceAndFrame from './backtrace-and-frame.ts';
import * as datumMessage from './datum-message.ts';
import * as statesAndTransitions from './states-and-transitions.ts';
import * as handshake from './handshake.ts';
import * as messageFraming from './message-framing.ts';
import * as queryOperations from './query-operations.ts';
import * as errors from './errors.ts';
import * as limits from './limits.ts';

export const checks: Check[] = [
  queryMessage,
  responseMessage,
  backtraceAndFrame,
  datumMessage,
  statesAndTransitions,
  handshake,
  messageFraming,
  queryOperations,
  errors,
  limits,
].flatMap((section) => section.checks as Check[]);
