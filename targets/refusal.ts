/**
 * The base of the errors a reference server raises to refuse a request or a query: an answer the
 * protocol defines, not a bug in the server. No stack is captured for it: most fuzzed requests end
 * in one, and capturing a stack cost more than the work of deciding the answer.
 */
export class Refusal extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
