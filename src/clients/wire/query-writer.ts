// Query encoding without protobufjs' Writer, for codec.ts's encodeQuery: the same bytes as
// `Query.encode(...).finish()` (fields by number, nested messages length-delimited, strings under
// 40 UTF-16 units through protobufjs' own UTF-8 writer, longer ones through Buffer's, as its
// BufferWriter does: the two differ on lone surrogates), in one buffer sized by a first pass. protobufjs forks a writer per nested
// message and parses every int64 token from a string: about 20 µs per fuzz case, as much as
// drawing the case. Anything the plain message shapes of codec.ts do not describe (a field of an
// unexpected JavaScript type) throws Unusual, and the caller encodes with protobufjs instead.
import protobuf from 'protobufjs';
import type { DatumMsg, QueryMsg, TermMsg } from './codec.ts';

const { utf8 } = protobuf.util;

/** The message holds something only protobufjs knows how to encode. */
export class Unusual extends Error {}

type Pair<V> = { key?: string; val?: V };

const has = (v: unknown) => v !== undefined && v !== null;

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** int32 fields (enums): negative numbers take 10 bytes, as 64-bit two's complement. */
function int32Size(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) throw new Unusual();
  return v < 0 ? 10 : varintSize(v >>> 0);
}

function strSize(s: unknown): number {
  if (typeof s !== 'string') throw new Unusual();
  const n = utf8.length(s);
  return varintSize(n) + n;
}

function token64(t: unknown): bigint {
  if (typeof t === 'bigint') return BigInt.asUintN(64, t);
  if (typeof t === 'number' && Number.isSafeInteger(t)) return BigInt.asUintN(64, BigInt(t));
  throw new Unusual();
}

function uint64Size(v: bigint): number {
  let n = 1;
  while (v >= 0x80n) {
    v >>= 7n;
    n++;
  }
  return n;
}

/**
 * Sizes of the nested messages, in the order the write pass meets them (pre-order): the size
 * pass reserves a slot before it descends and fills it after.
 */
class Sizes {
  readonly list: number[] = [];
  reserve(): number {
    this.list.push(0);
    return this.list.length - 1;
  }
}

function datumSize(d: DatumMsg, s: Sizes): number {
  const slot = s.reserve();
  let n = 0;
  if (has(d.type)) n += 1 + int32Size(d.type);
  if (has(d.r_bool)) {
    if (typeof d.r_bool !== 'boolean') throw new Unusual();
    n += 2;
  }
  if (has(d.r_num)) {
    if (typeof d.r_num !== 'number') throw new Unusual();
    n += 9;
  }
  if (has(d.r_str)) n += 1 + strSize(d.r_str);
  if (d.r_array?.length) for (const x of d.r_array) n += 1 + nested(datumSize(x, s));
  if (d.r_object?.length) for (const p of d.r_object) n += 1 + nested(pairSize(p, datumSize, s));
  return (s.list[slot] = n);
}

function termSize(t: TermMsg, s: Sizes): number {
  const slot = s.reserve();
  let n = 0;
  if (has(t.type)) n += 1 + int32Size(t.type);
  if (has(t.datum)) n += 1 + nested(datumSize(t.datum!, s));
  if (t.args?.length) for (const a of t.args) n += 1 + nested(termSize(a, s));
  if (t.optargs?.length) for (const p of t.optargs) n += 1 + nested(pairSize(p, termSize, s));
  return (s.list[slot] = n);
}

function pairSize<V>(p: Pair<V>, valSize: (v: V, s: Sizes) => number, s: Sizes): number {
  const slot = s.reserve();
  let n = 0;
  if (has(p.key)) n += 1 + strSize(p.key);
  if (has(p.val)) n += 1 + nested(valSize(p.val!, s));
  return (s.list[slot] = n);
}

const nested = (n: number) => varintSize(n) + n;

class Out {
  pos = 0;
  slot = 0;
  constructor(
    readonly buf: Buffer,
    readonly sizes: number[],
  ) {}

  byte(b: number): void {
    this.buf[this.pos++] = b;
  }

  varint(v: number): void {
    v >>>= 0;
    while (v > 127) {
      this.buf[this.pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[this.pos++] = v;
  }

  varint64(v: bigint): void {
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 127n) | 128;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  int32(v: number): void {
    if (v < 0) this.varint64(BigInt.asUintN(64, BigInt(v)));
    else this.varint(v);
  }

  str(s: string): void {
    const n = utf8.length(s);
    this.varint(n);
    if (s.length < 40) utf8.write(s, this.buf, this.pos);
    else this.buf.write(s, this.pos, 'utf8');
    this.pos += n;
  }

  /** The next nested message's length, from the size pass. */
  length(): void {
    this.varint(this.sizes[this.slot++]);
  }
}

function writeDatum(d: DatumMsg, o: Out): void {
  if (has(d.type)) (o.byte(8), o.int32(d.type!));
  if (has(d.r_bool)) (o.byte(16), o.byte(d.r_bool ? 1 : 0));
  if (has(d.r_num)) {
    o.byte(25);
    o.buf.writeDoubleLE(d.r_num!, o.pos);
    o.pos += 8;
  }
  if (has(d.r_str)) (o.byte(34), o.str(d.r_str!));
  if (d.r_array?.length) for (const x of d.r_array) (o.byte(42), o.length(), writeDatum(x, o));
  if (d.r_object?.length) for (const p of d.r_object) (o.byte(50), o.length(), writePair(p, writeDatum, o));
}

function writeTerm(t: TermMsg, o: Out): void {
  if (has(t.type)) (o.byte(8), o.int32(t.type!));
  if (has(t.datum)) (o.byte(18), o.length(), writeDatum(t.datum!, o));
  if (t.args?.length) for (const a of t.args) (o.byte(26), o.length(), writeTerm(a, o));
  if (t.optargs?.length) for (const p of t.optargs) (o.byte(34), o.length(), writePair(p, writeTerm, o));
}

function writePair<V>(p: Pair<V>, writeVal: (v: V, o: Out) => void, o: Out): void {
  if (has(p.key)) (o.byte(10), o.str(p.key!));
  if (has(p.val)) (o.byte(18), o.length(), writeVal(p.val!, o));
}

/** The Query's protobuf bytes, as protobufjs writes them; throws Unusual for shapes it leaves to protobufjs. */
export function writeQuery(q: QueryMsg): Buffer {
  const s = new Sizes();
  let n = 0;
  if (has(q.type)) n += 1 + int32Size(q.type);
  if (has(q.query)) n += 1 + nested(termSize(q.query!, s));
  const token = has(q.token) ? token64(q.token) : undefined;
  if (token !== undefined) n += 1 + uint64Size(token);
  for (const b of [q.OBSOLETE_noreply, q.accepts_r_json]) {
    if (!has(b)) continue;
    if (typeof b !== 'boolean') throw new Unusual();
    n += 2;
  }
  if (q.global_optargs?.length) for (const p of q.global_optargs) n += 1 + nested(pairSize(p, termSize, s));
  const o = new Out(Buffer.allocUnsafe(n), s.list);
  if (has(q.type)) (o.byte(8), o.int32(q.type!));
  if (has(q.query)) (o.byte(18), o.length(), writeTerm(q.query!, o));
  if (token !== undefined) (o.byte(24), o.varint64(token));
  if (has(q.OBSOLETE_noreply)) (o.byte(32), o.byte(q.OBSOLETE_noreply ? 1 : 0));
  if (has(q.accepts_r_json)) (o.byte(40), o.byte(q.accepts_r_json ? 1 : 0));
  if (q.global_optargs?.length) for (const p of q.global_optargs) (o.byte(50), o.length(), writePair(p, writeTerm, o));
  if (o.pos !== n) throw new Unusual();
  return o.buf;
}
