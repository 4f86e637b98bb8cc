// X-Filter evaluation as the document's "Filtering" paragraph states it: keys are fields (and'ed),
// operators +and, +or, +gt, +gte, +lt, +lte, +contains, +neq nest arbitrarily; +order_by / +order sort.
import { Refusal } from '../refusal.ts';
import type { CloudFault } from './faults.ts';

export class FilterError extends Refusal {}

type Row = Record<string, unknown>;

export function applyFilter(rows: Row[], raw: string, filterable: readonly string[], faults: ReadonlySet<CloudFault>): Row[] {
  let filter: unknown;
  try {
    filter = JSON.parse(raw);
  } catch {
    throw new FilterError('X-Filter is not valid JSON');
  }
  if (!isObject(filter)) throw new FilterError('X-Filter must be a JSON object');
  const { '+order_by': orderBy, '+order': order, ...rest } = filter;
  if (order !== undefined && orderBy === undefined && !faults.has('order-without-order-by-accepted')) throw new FilterError('+order requires +order_by');
  if (order !== undefined && order !== 'asc' && order !== 'desc') throw new FilterError('+order must be asc or desc');
  if (orderBy !== undefined && (typeof orderBy !== 'string' || !filterable.includes(orderBy))) throw new FilterError(`Cannot order by ${JSON.stringify(orderBy)}`);
  const out = rows.filter((row) => matches(row, rest, filterable, faults));
  if (typeof orderBy === 'string') {
    const dir = order === 'desc' && !faults.has('filter-order-ignored') ? -1 : 1;
    out.sort((a, b) => dir * compare(valueAt(a, orderBy), valueAt(b, orderBy)));
  }
  return out;
}

function matches(row: Row, filter: Row, filterable: readonly string[], faults: ReadonlySet<CloudFault>): boolean {
  const results = Object.entries(filter).map(([key, value]) => {
    if (key === '+and' || key === '+or') {
      if (!Array.isArray(value)) throw new FilterError(`${key} takes an array`);
      const parts = value.map((v) => {
        if (!isObject(v)) throw new FilterError(`${key} takes an array of objects`);
        return matches(row, v, filterable, faults);
      });
      const useAnd = key === '+and' || faults.has('filter-or-as-and');
      return useAnd ? parts.every(Boolean) : parts.some(Boolean);
    }
    if (key.startsWith('+')) throw new FilterError(`Unknown operator ${key} at this level`);
    if (!filterable.includes(key)) throw new FilterError(`Cannot filter on ${key}`);
    return fieldMatches(valueAt(row, key), value, faults);
  });
  return results.every(Boolean);
}

function fieldMatches(actual: unknown, condition: unknown, faults: ReadonlySet<CloudFault>): boolean {
  if (!isObject(condition)) return actual === condition || sameInstant(actual, condition);
  return Object.entries(condition).every(([op, v]) => {
    switch (op) {
      case '+gt':
        return typeof actual === 'number' && typeof v === 'number' && (faults.has('filter-gt-inclusive') ? actual >= v : actual > v);
      case '+gte':
        return typeof actual === 'number' && typeof v === 'number' && actual >= v;
      case '+lt':
        return typeof actual === 'number' && typeof v === 'number' && actual < v;
      case '+lte':
        return typeof actual === 'number' && typeof v === 'number' && actual <= v;
      case '+contains':
        return typeof actual === 'string' && typeof v === 'string' && actual.includes(v);
      case '+neq':
        return actual !== v;
      case '+and':
      case '+or': {
        if (!Array.isArray(v)) throw new FilterError(`${op} takes an array`);
        const parts = v.map((c) => fieldMatches(actual, c, faults));
        return op === '+and' ? parts.every(Boolean) : parts.some(Boolean);
      }
      default:
        throw new FilterError(`Unknown operator ${op}`);
    }
  });
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$/;

/** Two times in UTC written with or without milliseconds and `Z` (the variant writes them so) name the same instant. */
function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || !TIME.test(a) || !TIME.test(b)) return false;
  const t = (s: string) => Date.parse(s.endsWith('Z') ? s : `${s}Z`);
  return t(a) === t(b);
}

/**
 * A field of a row; a dotted name reads a nested object's field (`entity.id`: Linode marks the
 * fields of an Event's entity filterable, and its CLI sends them so named).
 */
function valueAt(row: Row, key: string): unknown {
  if (key in row) return row[key];
  return key.split('.').reduce<unknown>((v, part) => (isObject(v) ? v[part] : undefined), row);
}

function isObject(v: unknown): v is Row {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
