// The engine's entry: loading the term groups registers their definitions, one file per group
// of the document's term catalogue.
import './terms/core.ts';
import './terms/tables.ts';
import './terms/logic.ts';
import './terms/arithmetic.ts';
import './terms/arrays.ts';
import './terms/sequences.ts';
import './terms/ordering.ts';
import './terms/grouping.ts';
import './terms/objects.ts';
import './terms/control.ts';
import './terms/strings.ts';
import './terms/writes.ts';
import './terms/admin.ts';
import './terms/secondary-indexes.ts';
import './terms/time.ts';
import './terms/geometry.ts';
import './terms/key-range.ts';

export { compile, evaluate, orderingFault, resolve, toDatumValue, type Env } from './evaluate.ts';
export { NotYet, ReqlError } from './errors.ts';
export { Store } from './store.ts';
export { Feed, Stream, isFeed, isStream, type Value } from './values.ts';
