// "Key-range constants": MINVAL and MAXVAL, below and above every other datum, so that BETWEEN
// with them is unbounded on that side. Their place in the ordering is compareDatums' (logic.ts).
import { defineTerms } from '../evaluate.ts';
import { MAXVAL, MINVAL } from './logic.ts';

defineTerms({
  MINVAL: { arity: [0, 0], run: (c) => (c.env.faults.has('minval-maxval-as-null') ? null : MINVAL) },
  MAXVAL: { arity: [0, 0], run: (c) => (c.env.faults.has('minval-maxval-as-null') ? null : MAXVAL) },
});
