// CHANGES: changefeeds over a table (SEQUENCE_FEED), one row (ATOM_FEED) or an ordered,
// limited selection (ORDER_BY_LIMIT_FEED); with include_states the stream also carries
// {state: 'initializing'} and {state: 'ready'} (INCLUDES_STATES).
import type { JsValue } from '../../../src/clients/wire/codec.ts';
import { ResponseNote } from '../../../src/clients/wire/schema.ts';
import { logicError } from './errors.ts';
import { resolve, type Call } from './evaluate.ts';
import { asDelivered, keyOf, type Row } from './store.ts';
import { Feed, isRow, isStream, isTable, type TableRef, type Value } from './values.ts';

export type FeedKind = 'atom' | 'order_by_limit' | 'sequence';

const NOTE: Record<FeedKind, number> = {
  atom: ResponseNote.ATOM_FEED,
  order_by_limit: ResponseNote.ORDER_BY_LIMIT_FEED,
  sequence: ResponseNote.SEQUENCE_FEED,
};

export function changefeed(c: Call, target: Value, kind: FeedKind, includeStates: boolean, includeInitial: boolean): Feed {
  let source: TableRef | undefined;
  let key: JsValue | undefined;
  if (isRow(target)) {
    source = target.table;
    key = target.key;
  } else if (isTable(target)) source = target;
  else if (isStream(target)) source = target.source;
  if (!source) throw logicError('CHANGES expects a table, a row of a table, or an ordered and limited table selection.').at({ pos: 0 });
  const table = c.env.store.table(source);
  const notes = [NOTE[c.env.faults.has('feed-kind-always-sequence') ? 'sequence' : kind]];
  // The late fault's bug: the states come after the first response, and the note is left out.
  const late = includeStates && c.env.faults.has('feed-states-late-unannounced');
  if (includeStates && !late && !c.env.faults.has('feed-states-unannounced')) notes.push(ResponseNote.INCLUDES_STATES);
  const feed = new Feed(c.env.faults.has('feed-missing-note') ? [] : notes);
  if (late) {
    setTimeout(() => {
      feed.push({ state: 'initializing' });
      feed.push({ state: 'ready' });
    }, 0);
    includeStates = false;
  }
  if (includeStates) feed.push({ state: 'initializing' });
  // A point feed starts with the row as it is (not in the variant: whether it does is not
  // stated); other feeds only when include_initial is set.
  if (kind === 'atom' && !c.env.variant) feed.push(asDelivered({ new_val: table.get(key!) ?? null }, c.env.variant));
  else if (includeInitial) for (const row of resolveRows(c, target)) feed.push(asDelivered({ new_val: row as Row }, c.env.variant));
  if (includeStates) feed.push({ state: 'ready' });
  table.subscribe(feed, (change) => {
    const rowKey = (change.new_val ?? change.old_val)![table.primaryKey];
    if (kind === 'atom' && keyOf(rowKey) !== keyOf(key!)) return;
    feed.push(asDelivered(change, c.env.variant));
  });
  return feed;
}

/**
 * UNION of changefeeds: one feed carrying the changes of all. Feeds of one kind keep that kind's
 * note; feeds of kinds that cannot be collapsed into one are marked UNIONED_FEED.
 */
export function unionFeeds(c: Call, feeds: Feed[]): Feed {
  const states = ResponseNote.INCLUDES_STATES;
  const kinds = new Set(feeds.flatMap((f) => f.notes.filter((n) => n !== states)));
  let notes = kinds.size === 1 ? [...kinds] : [ResponseNote.UNIONED_FEED];
  if (kinds.size > 1 && c.env.faults.has('unioned-feed-unannounced')) notes = [ResponseNote.SEQUENCE_FEED];
  if (feeds.some((f) => f.notes.includes(states))) notes.push(states);
  const union = new Feed(notes);
  for (const f of feeds) {
    const drain = () => {
      for (const change of f.pending.splice(0)) union.push(change);
    };
    drain();
    f.onPush(drain);
  }
  union.onClose(() => feeds.forEach((f) => f.close()));
  return union;
}

function resolveRows(c: Call, target: Value): JsValue[] {
  const v = resolve(target, c.env);
  return isStream(v) ? v.take(Infinity).batch : [];
}
