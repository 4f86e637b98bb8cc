// The WIRE suite: one file per section of the WIRE document (wire-protocol.md), in document order,
// and one file per group of its term catalogue.
import type { Check } from '../../src/core/check.ts';
import * as queryMessage from './query-message.ts';
import * as responseMessage from './response-message.ts';
import * as backtraceAndFrame from './backtrace-and-frame.ts';
import * as datumMessage from './datum-message.ts';
import * as termMessage from './term-message.ts';
import * as statesAndTransitions from './states-and-transitions.ts';
import * as handshake from './handshake.ts';
import * as messageFraming from './message-framing.ts';
import * as queryOperations from './query-operations.ts';
import * as authentication from './authentication.ts';
import * as errors from './errors.ts';
import * as limits from './limits.ts';
import * as versioning from './versioning.ts';
import * as termCoreAndData from './term-catalogue-core-and-data.ts';
import * as termDatabaseAndTableAccess from './term-catalogue-database-and-table-access.ts';
import * as termComparisonAndLogic from './term-catalogue-comparison-and-logic.ts';
import * as termArithmetic from './term-catalogue-arithmetic.ts';
import * as termArraysAndSets from './term-catalogue-arrays-and-sets.ts';
import * as termSequences from './term-catalogue-sequences.ts';
import * as termObjects from './term-catalogue-objects.ts';
import * as termTypesAndControl from './term-catalogue-types-and-control.ts';
import * as termStrings from './term-catalogue-strings.ts';
import * as termWrites from './term-catalogue-writes.ts';
import * as termAdministration from './term-catalogue-administration.ts';
import * as termSecondaryIndexes from './term-catalogue-secondary-indexes.ts';
import * as termTime from './term-catalogue-time.ts';
import * as termGeometry from './term-catalogue-geometry.ts';

export const checks: Check[] = [
  queryMessage,
  responseMessage,
  backtraceAndFrame,
  datumMessage,
  termMessage,
  statesAndTransitions,
  handshake,
  messageFraming,
  queryOperations,
  authentication,
  errors,
  limits,
  versioning,
  termCoreAndData,
  termDatabaseAndTableAccess,
  termComparisonAndLogic,
  termArithmetic,
  termArraysAndSets,
  termSequences,
  termObjects,
  termTypesAndControl,
  termStrings,
  termWrites,
  termAdministration,
  termSecondaryIndexes,
  termTime,
  termGeometry,
].flatMap((section) => section.checks as Check[]);
