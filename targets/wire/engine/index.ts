// The engine's entry: loading the term groups registers their definitions.
import './terms/core.ts';
import './terms/logic.ts';
import './terms/arithmetic.ts';
import './terms/sequences.ts';

export { compile, evaluate, toDatumValue, type Env } from './evaluate.ts';
export { ReqlError } from './errors.ts';
export { Stream, isStream, type Value } from './values.ts';
