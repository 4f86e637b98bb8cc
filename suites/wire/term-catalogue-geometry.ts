// Term catalogue of wire-protocol.md, group "Geometry" and the key-range constants (line 158).
import { term as t } from '../../src/clients/wire/terms.ts';
import { check } from '../../src/core/check.ts';
import type { WireConnection } from '../../src/clients/wire/connection.ts';
import type { Term } from '../../src/clients/wire/terms.ts';
import type { JsValue } from '../../src/clients/wire/codec.ts';
import { deepEqual, expectArityRefused, expectType, expectValue, fn1, ResponseType, type SetupContext, setupValue, show, summary, tableWith, valueOf, values, withDatabase, withOptionalDatabase } from './support.ts';

const section = 'Term catalogue (TermType name = number: signature)';
const file = 'wire-protocol.md';
const line = 158;

const point = (lon: number, lat: number) => t('POINT', [lon, lat]);
/** The unit square between longitudes and latitudes 0 and 1. */
const square = () => t('POLYGON', [[0, 0], [0, 1], [1, 1], [1, 0]]);

export const arity = check(
  {
    id: 'wire.term-catalogue.geometry.arity',
    title: 'Geometry terms refuse argument counts their signatures exclude with COMPILE_ERROR',
    protocol: 'wire',
    section,
    level: 'MUST',
    spec: { file, line, quote: 'INTERSECTS=163 and INCLUDES=164: GEOMETRY, GEOMETRY -> BOOL' },
    touches: ['term:CIRCLE', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:DISTANCE', 'term:FILL', 'term:FUNC', 'term:GEOJSON', 'term:GET_FIELD', 'term:GET_INTERSECTING', 'term:GET_NEAREST', 'term:INCLUDES', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:INTERSECTS', 'term:LINE', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:POINT', 'term:POLYGON', 'term:POLYGON_SUB', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['arity-unchecked-geometry'],
    terms: ['GEOJSON', 'POINT', 'DISTANCE', 'INTERSECTS', 'INCLUDES', 'CIRCLE', 'GET_INTERSECTING', 'FILL', 'GET_NEAREST', 'POLYGON_SUB'],
  },
  async (ctx) => {
    const two = [1, 3];
    await withOptionalDatabase(ctx, 'geometry-arity', async (conn, db, why) => {
      let tb: Term | undefined;
      let no = why;
      if (db) {
        try {
          tb = await places(ctx, conn, db);
        } catch (err) {
          if (!(err instanceof Error) || !/inconclusive|failure/i.test(err.name)) throw err;
          no = err.message;
        }
      }
      await expectArityRefused(ctx, conn, {
        GEOJSON: { valid: t('GEOJSON', [{ type: 'Point', coordinates: [0, 0] }]), wrong: [0, 2] },
        POINT: { valid: point(0, 0), wrong: two },
        DISTANCE: { valid: t('DISTANCE', [point(0, 0), point(0, 1)]), wrong: two },
        INTERSECTS: { valid: t('INTERSECTS', [square(), point(0.5, 0.5)]), wrong: two },
        INCLUDES: { valid: t('INCLUDES', [square(), point(0.5, 0.5)]), wrong: two },
        CIRCLE: { valid: t('CIRCLE', [point(0, 0), 1]), wrong: two },
        GET_INTERSECTING: { valid: tb && t('GET_INTERSECTING', [tb, square()], { index: 'loc' }), wrong: two, why: no },
        FILL: { valid: t('FILL', [t('LINE', [[0, 0], [0, 1], [1, 1], [0, 0]])]), wrong: [0, 2] },
        GET_NEAREST: { valid: tb && t('GET_NEAREST', [tb, point(0, 0)], { index: 'loc' }), wrong: two, why: no },
        POLYGON_SUB: { valid: t('POLYGON_SUB', [t('POLYGON', [[0, 0], [0, 3], [3, 3], [3, 0]]), square()]), wrong: two },
      });
    });
  },
);

export const includesIntersects = check(
  {
    id: 'wire.term-catalogue.geometry.includes-and-intersects',
    title: 'INCLUDES tells whether the first geometry contains the second, INTERSECTS whether they meet',
    protocol: 'wire',
    section,
    // Line 158 gives only GEOMETRY, GEOMETRY -> BOOL: what each answers is read from the term's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'INTERSECTS=163 and INCLUDES=164: GEOMETRY, GEOMETRY -> BOOL' },
    touches: ['term:DATUM', 'term:INCLUDES', 'term:INTERSECTS', 'term:LINE', 'term:POINT', 'term:POLYGON'],
    faults: ['includes-reversed'],
    terms: ['INCLUDES', 'INTERSECTS', 'POLYGON', 'POINT', 'LINE'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    await expectValue(conn, t('INCLUDES', [square(), point(0.5, 0.5)]), true, 'INCLUDES(unit square, POINT(0.5, 0.5))');
    await expectValue(conn, t('INCLUDES', [square(), point(2, 2)]), false, 'INCLUDES(unit square, POINT(2, 2))');
    await expectValue(conn, t('INTERSECTS', [square(), point(2, 2)]), false, 'INTERSECTS(unit square, POINT(2, 2))');
    await expectValue(conn, t('INTERSECTS', [square(), t('LINE', [[0.5, 0.5], [2, 2]])]), true, 'INTERSECTS(unit square, LINE([0.5, 0.5], [2, 2]))');
    // LINE and POLYGON take points as arrays or as POINT geometries: (ARRAY|GEOMETRY)...
    const fromPoints = t('POLYGON', [point(0, 0), point(0, 1), point(1, 1), point(1, 0)]);
    await expectValue(conn, t('INCLUDES', [fromPoints, point(0.5, 0.5)]), true, 'INCLUDES(POLYGON of four POINTs, POINT(0.5, 0.5))');
    await expectValue(conn, t('INTERSECTS', [square(), t('LINE', [point(0.5, 0.5), [2, 2]])]), true, 'INTERSECTS(unit square, LINE(POINT(0.5, 0.5), [2, 2]))');
  },
);

export const distanceUnit = check(
  {
    id: 'wire.term-catalogue.geometry.distance-unit',
    title: 'DISTANCE answers a NUMBER that its unit option changes',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'DISTANCE=162: GEOMETRY, GEOMETRY {geo_system:STRING, unit:STRING} -> NUMBER' },
    touches: ['term:DATUM', 'term:DISTANCE', 'term:POINT'],
    faults: ['distance-ignores-unit'],
    terms: ['DISTANCE'],
  },
  async (ctx) => {
    // Line 158 gives only `{geo_system:STRING, unit:STRING} -> NUMBER`: neither the unit names, nor
    // their sizes, nor the geodesic models are stated. What holds on any server that knows the
    // units "m" and "km": the answers are NUMBERs, and the same distance is a different number in
    // each. A server that knows neither name leaves the rule untested.
    const conn = await ctx.wire.connect();
    const between = [point(0, 0), point(0, 1)];
    const inUnit = async (unit: string): Promise<JsValue> => {
      const what = `DISTANCE(POINT(0, 0), POINT(0, 1), {unit: "${unit}"})`;
      const res = await conn.start(t('DISTANCE', between, { unit }));
      if (res.type === ResponseType.COMPILE_ERROR || res.type === ResponseType.RUNTIME_ERROR) {
        ctx.inconclusive(`${what} was refused (${summary(res)} ${show(res.response[0]?.r_str ?? '')}); the document names no unit`);
      }
      expectType(res, 'SUCCESS_ATOM', what);
      const value = values(res)[0];
      ctx.expect(typeof value === 'number' && value > 0, `${what} should be a positive NUMBER, got ${show(value)}`);
      return value;
    };
    const metres = await inUnit('m');
    const km = await inUnit('km');
    ctx.expect(km !== metres, `the same distance should be a different NUMBER in unit "km" than in unit "m", got ${show(km)} for both`);
  },
);

export const circleRadius = check(
  {
    id: 'wire.term-catalogue.geometry.circle-radius',
    title: 'CIRCLE around a point includes points within its radius (in its unit) and not points beyond it',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'CIRCLE=165: GEOMETRY, NUMBER {num_vertices:NUMBER, geo_system:STRING, unit:STRING, fill:BOOL}' },
    touches: ['term:CIRCLE', 'term:DATUM', 'term:FILL', 'term:GEOJSON', 'term:INCLUDES', 'term:POINT', 'term:POLYGON', 'term:POLYGON_SUB', 'term:TO_GEOJSON'],
    faults: ['distance-ignores-unit'],
    terms: ['CIRCLE', 'INCLUDES', 'FILL', 'POLYGON_SUB', 'TO_GEOJSON', 'GEOJSON'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    // 0.005 degrees of latitude is about 553 m, 0.01 about 1106 m.
    const circle = t('CIRCLE', [point(0, 0), 1], { unit: 'km', num_vertices: 64 });
    await expectValue(conn, t('INCLUDES', [circle, point(0, 0.005)]), true, 'INCLUDES(CIRCLE(POINT(0, 0), 1, {unit: "km"}), a point 553 m away)');
    await expectValue(conn, t('INCLUDES', [circle, point(0, 0.01)]), false, 'INCLUDES(CIRCLE(POINT(0, 0), 1, {unit: "km"}), a point 1106 m away)');
    const ring = t('CIRCLE', [point(0, 0), 1000], { fill: false });
    await expectValue(conn, t('INCLUDES', [t('FILL', [ring]), point(0, 0.005)]), true, 'INCLUDES(FILL(CIRCLE(POINT(0, 0), 1000, {fill: false})), a point 553 m away)');
    const holed = t('POLYGON_SUB', [square(), t('POLYGON', [[0.4, 0.4], [0.4, 0.6], [0.6, 0.6], [0.6, 0.4]])]);
    await expectValue(conn, t('INCLUDES', [holed, point(0.5, 0.5)]), false, 'INCLUDES(POLYGON_SUB(unit square, middle square), POINT(0.5, 0.5))');
    await expectValue(conn, t('TO_GEOJSON', [t('GEOJSON', [{ type: 'Point', coordinates: [1, 2] }])]), { type: 'Point', coordinates: [1, 2] }, 'TO_GEOJSON(GEOJSON({type: "Point", coordinates: [1, 2]}))');
  },
);

export const geoJsonRoundTrip = check(
  {
    id: 'wire.term-catalogue.geometry.geojson-round-trip',
    title: 'GEOJSON makes a GEOMETRY of a GeoJSON OBJECT and TO_GEOJSON gives the plain GeoJSON back',
    protocol: 'wire',
    section,
    level: 'SHOULD',
    spec: { file, line, quote: 'GEOJSON=157: OBJECT -> GEOMETRY; TO_GEOJSON=158' },
    touches: ['term:DATUM', 'term:GEOJSON', 'term:POINT', 'term:TO_GEOJSON'],
    faults: ['to-geojson-keeps-reql-type'],
    terms: ['GEOJSON', 'TO_GEOJSON', 'POINT'],
  },
  async (ctx) => {
    const conn = await ctx.wire.connect();
    const line = { type: 'LineString', coordinates: [[0, 0], [1, 1]] };
    await expectValue(conn, t('TO_GEOJSON', [t('GEOJSON', [line])]), line, 'TO_GEOJSON(GEOJSON(a LineString))');
    await expectValue(conn, t('TO_GEOJSON', [point(3, 4)]), { type: 'Point', coordinates: [3, 4] }, 'TO_GEOJSON(POINT(3, 4))');
  },
);

/**
 * A table of places with a geo index `loc` over their POINTs, as set-up steps. The index is
 * created with `{geo: true}`, an optional argument line 154 does not list for INDEX_CREATE: a
 * server that refuses it leaves the check inconclusive, not failed.
 */
async function places(ctx: SetupContext, conn: WireConnection, db: Term): Promise<Term> {
  const table = await tableWith(ctx, conn, db, 'places', []);
  for (const [id, lon, lat] of [[1, 0.5, 0.5], [2, 5, 5], [3, 0.1, 0.1]] as const) {
    await setupValue(ctx, conn, t('INSERT', [table, t('MAKE_OBJ', [], { id, loc: point(lon, lat) })]), `INSERT place ${id}`, 'wire.term-catalogue.writes.insert-counts');
  }
  await setupValue(ctx, conn, t('INDEX_CREATE', [table, 'loc', fn1((x) => t('GET_FIELD', [x, 'loc']))], { geo: true }), 'INDEX_CREATE(places, "loc", {geo: true})');
  await setupValue(ctx, conn, t('INDEX_WAIT', [table, 'loc']), 'INDEX_WAIT(places, "loc")', 'wire.term-catalogue.secondary-indexes.index-status-and-wait-shape');
  return table;
}

export const getIntersecting = check(
  {
    id: 'wire.term-catalogue.geometry.get-intersecting',
    title: 'GET_INTERSECTING returns the rows whose indexed geometry meets the given one',
    protocol: 'wire',
    section,
    // Line 158 gives only the signature: which rows come back is read from the term's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'GET_INTERSECTING=166: TABLE, GEOMETRY {index:!STRING} -> StreamSelection' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:GET_INTERSECTING', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:POINT', 'term:POLYGON', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['get-intersecting-ignores-geometry'],
    terms: ['GET_INTERSECTING', 'INDEX_CREATE'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'get-intersecting', async (conn, db) => {
      const table = await places(ctx, conn, db);
      const rows = await valueOf(conn, t('GET_INTERSECTING', [table, square()], { index: 'loc' }), 'GET_INTERSECTING(places, unit square, {index: "loc"})');
      const ids = Array.isArray(rows) ? rows.map((r) => (r as { id: number }).id).sort() : rows;
      ctx.expect(deepEqual(ids, [1, 3]), `GET_INTERSECTING(places, unit square) should return places 1 and 3, got ids ${show(ids)}`);
    });
  },
);

export const getNearest = check(
  {
    id: 'wire.term-catalogue.geometry.get-nearest-max-results',
    title: 'GET_NEAREST answers an ARRAY of at most max_results items',
    protocol: 'wire',
    section,
    // Line 158 gives only {max_results:NUM} -> ARRAY: the cap is read from the option's name.
    level: 'SHOULD',
    spec: { file, line, quote: 'GET_NEAREST=168: TABLE, GEOMETRY {index:!STRING, max_results:NUM, max_dist:NUM, geo_system:STRING, unit:STRING} -> ARRAY' },
    touches: ['term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:FUNC', 'term:GET_FIELD', 'term:GET_NEAREST', 'term:INDEX_CREATE', 'term:INDEX_WAIT', 'term:INSERT', 'term:MAKE_ARRAY', 'term:MAKE_OBJ', 'term:POINT', 'term:TABLE', 'term:TABLE_CREATE', 'term:VAR'],
    faults: ['get-nearest-ignores-max-results'],
    terms: ['GET_NEAREST'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'get-nearest', async (conn, db) => {
      const table = await places(ctx, conn, db);
      const got = await valueOf(conn, t('GET_NEAREST', [table, point(0, 0)], { index: 'loc', max_results: 2, max_dist: 2000, unit: 'km' }), 'GET_NEAREST(places, POINT(0, 0), {index: "loc", max_results: 2, max_dist: 2000, unit: "km"})');
      ctx.expect(Array.isArray(got) && got.length === 2, `GET_NEAREST with max_results 2 over 3 places in range should answer an ARRAY of 2, got ${show(got)}`);
    });
  },
);

export const keyRangeConstants = check(
  {
    id: 'wire.term-catalogue.key-range-constants.minval-maxval-unbounded',
    title: 'MINVAL and MAXVAL bound a key range below and above every key (BETWEEN with them is unbounded)',
    protocol: 'wire',
    section,
    level: 'MUST',
    // Line 158 only names the constants; line 142 states what they do.
    spec: { file, line: 142, quote: 'unboundedness via MINVAL and MAXVAL' },
    touches: ['term:BETWEEN', 'term:DATUM', 'term:DB', 'term:DB_CREATE', 'term:DB_DROP', 'term:INSERT', 'term:MAXVAL', 'term:MINVAL', 'term:TABLE', 'term:TABLE_CREATE'],
    faults: ['minval-maxval-as-null'],
    terms: ['MINVAL', 'MAXVAL', 'BETWEEN'],
  },
  async (ctx) => {
    await withDatabase(ctx, 'minval-maxval', async (conn, db) => {
      const table = await tableWith(ctx, conn, db, 'rows', [1, 2, 3, 4, 5].map((id) => ({ id })));
      const ids = async (lo: unknown, hi: unknown, what: string) => {
        const rows = await valueOf(conn, t('BETWEEN', [table, lo as never, hi as never]), what);
        return Array.isArray(rows) ? rows.map((r) => (r as { id: number }).id).sort((a, b) => a - b) : rows;
      };
      const low = await ids(t('MINVAL', []), 3, 'BETWEEN(table, MINVAL, 3)');
      ctx.expect(deepEqual(low, [1, 2]), `BETWEEN(table of ids 1..5, MINVAL, 3) should select [1,2], got ${show(low)}`);
      const high = await ids(4, t('MAXVAL', []), 'BETWEEN(table, 4, MAXVAL)');
      ctx.expect(deepEqual(high, [4, 5]), `BETWEEN(table of ids 1..5, 4, MAXVAL) should select [4,5], got ${show(high)}`);
    });
  },
);

export const checks = [arity, includesIntersects, distanceUnit, circleRadius, geoJsonRoundTrip, getIntersecting, getNearest, keyRangeConstants];
