// "Geometry" terms over the GEOMETRY pseudotype (GeoJSON with $reql_type$ 'GEOMETRY').
// Distances and circles are geodesics on the WGS84 ellipsoid (or the unit sphere) computed by
// geographiclib (Karney); intersection and containment tests are turf's.
import booleanContains from '@turf/boolean-contains';
import booleanIntersects from '@turf/boolean-intersects';
import type { Feature, Geometry as GeoJson } from 'geojson';
// A CommonJS module whose names node's own ESM loader cannot see (the built package runs on it,
// not on jiti): imported whole.
import geographiclib from 'geographiclib-geodesic';
import type { JsValue } from '../../../../src/clients/wire/codec.ts';
import { isObject, num, obj, optBool, optNum, optString, readAll, seq, type Obj, typeMismatch } from '../args.ts';
import { logicError, nonExistence, ReqlError } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { indexKeys, requireIndex } from '../indexes.ts';
import type { TableData } from '../store.ts';
import { isTable, Stream, typeName, type TableRef } from '../values.ts';

const { Geodesic } = geographiclib;

type Position = [number, number];
type Geometry = Obj & { $reql_type$: 'GEOMETRY'; type: string; coordinates: JsValue };

const MEAN_SPHERE = new Geodesic.Geodesic(6_371_008.8, 0);

const UNITS: Record<string, number> = { m: 1, km: 1000, mi: 1609.344, nm: 1852, ft: 0.3048 };

function geometry(c: Call, i: number): Geometry {
  const v = c.datum(i);
  if (!isObject(v) || v.$reql_type$ !== 'GEOMETRY') throw typeMismatch(c, i, 'PTYPE<GEOMETRY>', v);
  return v as Geometry;
}

function make(type: string, coordinates: JsValue): Geometry {
  return { $reql_type$: 'GEOMETRY', type, coordinates } as Geometry;
}

function asGeoJson(g: Geometry): Feature<GeoJson> {
  return { type: 'Feature', properties: {}, geometry: { type: g.type, coordinates: g.coordinates } as GeoJson };
}

/** A point argument of LINE/POLYGON: [lon, lat] or a POINT geometry. */
function position(c: Call, i: number): Position {
  const v = c.datum(i);
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number')) return v as Position;
  if (isObject(v) && v.$reql_type$ === 'GEOMETRY' && v.type === 'Point') return v.coordinates as Position;
  throw logicError(`Expected a point ([longitude, latitude] or POINT) but found ${typeName(v)}.`).at({ pos: i });
}

function checkPosition([lon, lat]: Position): void {
  if (lat < -90 || lat > 90) throw logicError(`Latitude must be between -90 and 90, got ${lat}.`);
  if (lon < -180 || lon > 180) throw logicError(`Longitude must be between -180 and 180, got ${lon}.`);
}

/** Errors of a constructor's own arguments, located at the first (RethinkDB points there). */
function atZero<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw err instanceof ReqlError && !err.frames.length ? err.at({ pos: 0 }) : err;
  }
}

function closeRing(ring: Position[]): Position[] {
  const [a, z] = [ring[0], ring[ring.length - 1]];
  return a[0] === z[0] && a[1] === z[1] ? ring : [...ring, a];
}

/** The geodesic model named by geo_system: 'WGS84' (default) or 'unit_sphere'. */
function model(c: Call) {
  const named = optString(c, 'geo_system');
  // With no geo_system the model is not stated: the reference uses the WGS84 ellipsoid, the
  // variant a sphere of the Earth's mean radius (a degree of latitude is then 111.2 km, not 110.6).
  if (named === undefined && c.env.variant) return MEAN_SPHERE;
  const system = named ?? 'WGS84';
  if (system === 'WGS84') return Geodesic.WGS84;
  if (system === 'unit_sphere') return new Geodesic.Geodesic(1, 0);
  throw logicError(`Unrecognized geo_system \`${system}\` (WGS84 or unit_sphere).`).at({ opt: 'geo_system' });
}

/** Metres per `unit` (ignored on the unit sphere, whose distances are radians). */
function unitScale(c: Call): number {
  const unit = optString(c, 'unit') ?? 'm';
  if (!(unit in UNITS)) throw logicError(`Unrecognized unit \`${unit}\` (m, km, mi, nm, ft).`).at({ opt: 'unit' });
  return c.env.faults.has('distance-ignores-unit') ? 1 : UNITS[unit];
}

function pointsOf(g: Geometry): Position[] {
  if (g.type === 'Point') return [g.coordinates as Position];
  if (g.type === 'LineString') return g.coordinates as Position[];
  return (g.coordinates as Position[][]).flat();
}

function geodesicDistance(c: Call, a: Position, b: Position): number {
  return model(c).Inverse(a[1], a[0], b[1], b[0]).s12!;
}

/** Distance between geometries: exact between points; to a line or polygon, to its nearest vertex (0 when inside). */
function distance(c: Call, a: Geometry, b: Geometry): number {
  if (a.type !== 'Point' && b.type !== 'Point') throw logicError('DISTANCE needs at least one POINT.');
  const [p, other] = a.type === 'Point' ? [a, b] : [b, a];
  if (other.type === 'Polygon' && booleanIntersects(asGeoJson(p), asGeoJson(other))) return 0;
  const here = p.coordinates as Position;
  return Math.min(...pointsOf(other).map((q) => geodesicDistance(c, here, q)));
}

/** C's `%.20g`: the digits RethinkDB prints a double with. */
function g20(n: number): string {
  return n.toPrecision(20).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/**
 * The vertices of a circle as RethinkDB's build_circle places them (src/rdb_protocol/geo/
 * primitives.cc): the first due south (azimuth -180), then at equal turns; the radius must be
 * positive and under a quarter of the circumference along the minor axis.
 */
function circle(c: Call, center: Position, radius: number, vertices: number, fill: boolean): Geometry {
  const geo = model(c);
  if (radius <= 0) throw logicError('Radius must be positive').at({ pos: 1 });
  const maxRadius = 0.5 * Math.PI * Math.min(geo.a, geo.a * (1 - geo.f));
  if (radius >= maxRadius) {
    throw logicError(`Radius must be smaller than a quarter of the circumference along the minor axis of the reference ellipsoid.  Got ${g20(radius)}m, but must be smaller than ${g20(maxRadius)}m.`).at({ pos: 1 });
  }
  const ring: Position[] = [];
  for (let k = 0; k < vertices; k++) {
    const d = geo.Direct(center[1], center[0], -180 + (360 / vertices) * k, radius);
    ring.push([d.lon2!, d.lat2!]);
  }
  const closed = closeRing(ring);
  return fill ? make('Polygon', [closed]) : make('LineString', closed);
}

/**
 * GET_INTERSECTING and GET_NEAREST read a geospatial index of a table itself, as RethinkDB
 * requires (geo/indexing.yaml): not a selection of it, not the primary index, not a plain index.
 */
function geoIndex(c: Call, term: 'get_intersecting' | 'get_nearest'): { table: TableData; index: string; rows: JsValue[]; source: TableRef } {
  const v = c.arg(0);
  if (!isTable(v)) throw logicError(`Expected type TABLE but found ${typeName(v)}.`).at({ pos: 0 });
  const s = seq(c, 0);
  const table = c.env.store.table(v);
  const index = optString(c, 'index');
  if (index === undefined) throw logicError(`${term.toUpperCase()} requires an \`index\`.`);
  if (index === table.primaryKey) throw logicError(`${term} cannot use the primary index.`).at({ pos: 0 });
  requireIndex(table, index);
  if (!table.indexes.get(index)?.geo) throw logicError(`Index \`${index}\` is not a geospatial index.  ${term} can only be used with a geospatial index.`).at({ pos: 0 });
  return { table, index, rows: readAll(s), source: v };
}

/** GeoJSON as RethinkDB reads it (src/rdb_protocol/geo/geojson.cc): checked field by field. */
function fromGeoJson(g: Obj): Geometry {
  if (!Object.hasOwn(g, 'type')) throw nonExistence('No attribute `type` in object.');
  if (!Object.hasOwn(g, 'coordinates')) throw nonExistence('No attribute `coordinates` in object.');
  for (const key of Object.keys(g)) {
    if (!['type', 'coordinates', 'crs', 'bbox'].includes(key)) throw logicError(`Unrecognized field \`${key}\` found in geometry object.`);
  }
  if (g.crs !== undefined && g.crs !== null) {
    throw logicError('Non-default coordinate reference systems are not supported in GeoJSON objects.  Make sure the `crs` field of the geometry is null or non-existent.');
  }
  const type = g.type;
  if (typeof type !== 'string') throw logicError(`Expected type STRING but found ${typeName(type)}.`);
  const numPair = (p: JsValue): Position => {
    if (!Array.isArray(p)) throw logicError(`Expected type ARRAY but found ${typeName(p)}.`);
    if (p.length !== 2) throw logicError(`Expected point coordinates with exactly two elements, but found ${p.length}.`);
    for (const x of p) if (typeof x !== 'number') throw logicError(`Expected type NUMBER but found ${typeName(x)}.`);
    checkPosition(p as Position);
    return p as Position;
  };
  const list = (v: JsValue): JsValue[] => {
    if (!Array.isArray(v)) throw logicError(`Expected type ARRAY but found ${typeName(v)}.`);
    return v;
  };
  let coordinates: JsValue;
  if (type === 'Point') coordinates = numPair(g.coordinates);
  else if (type === 'LineString') coordinates = checkLine(list(g.coordinates).map(numPair));
  else if (type === 'Polygon') coordinates = list(g.coordinates).map((ring) => checkRing(closeRing(list(ring).map(numPair))));
  else throw logicError(`Unrecognized GeoJSON type \`${type}\`.`);
  const out = make(type, coordinates);
  if (g.crs === null) out.crs = null;
  return out;
}

/** Two equal consecutive vertices make no line (RethinkDB: "Invalid LineString"). */
function checkLine(points: Position[]): Position[] {
  if (points.length < 2) throw logicError(`Invalid LineString.  Expected at least 2 points, but found ${points.length}.`);
  for (let i = 1; i < points.length; i++) {
    if (points[i][0] === points[i - 1][0] && points[i][1] === points[i - 1][1]) throw logicError('Invalid LineString.  Are there antipodal or duplicate vertices?');
  }
  return points;
}

/** A closed ring needs three distinct vertices, none repeated in a row. */
function checkRing(ring: Position[]): Position[] {
  const open = ring.slice(0, -1);
  const dup = open.some((p, i) => i > 0 && p[0] === open[i - 1][0] && p[1] === open[i - 1][1]);
  if (open.length < 3 || dup) throw logicError('Invalid LinearRing.  Are there antipodal or duplicate vertices? Is it self-intersecting?');
  return ring;
}

defineTerms({
  GEOJSON: {
    arity: [1, 1],
    run: (c) => {
      try {
        return fromGeoJson(obj(c, 0));
      } catch (err) {
        throw err instanceof ReqlError ? err.at({ pos: 0 }) : err;
      }
    },
  },
  TO_GEOJSON: {
    arity: [1, 1],
    run: (c) => {
      const g = geometry(c, 0);
      if (c.env.faults.has('to-geojson-keeps-reql-type')) return g;
      const { $reql_type$: _t, ...rest } = g;
      return rest;
    },
  },
  POINT: {
    arity: [2, 2],
    run: (c) => {
      const p: Position = [num(c, 0), num(c, 1)];
      checkPosition(p);
      return make('Point', p);
    },
  },
  LINE: {
    arity: [2, Infinity],
    run: (c) => make('LineString', atZero(() => checkLine(Array.from({ length: c.argc }, (_, i) => position(c, i))))),
  },
  POLYGON: {
    arity: [3, Infinity],
    run: (c) => make('Polygon', [atZero(() => checkRing(closeRing(Array.from({ length: c.argc }, (_, i) => position(c, i)))))]),
  },
  DISTANCE: {
    arity: [2, 2],
    optargs: ['geo_system', 'unit'],
    run: (c) => distance(c, geometry(c, 0), geometry(c, 1)) / unitScale(c),
  },
  INTERSECTS: {
    arity: [2, 2],
    run: (c) => booleanIntersects(asGeoJson(geometry(c, 0)), asGeoJson(geometry(c, 1))),
  },
  INCLUDES: {
    arity: [2, 2],
    run: (c) => {
      let [outer, inner] = [geometry(c, 0), geometry(c, 1)];
      if (c.env.faults.has('includes-reversed')) [outer, inner] = [inner, outer];
      if (outer.type !== 'Polygon') throw logicError('INCLUDES expects a POLYGON as its first argument.').at({ pos: 0 });
      return booleanContains(asGeoJson(outer), asGeoJson(inner));
    },
  },
  CIRCLE: {
    arity: [2, 2],
    optargs: ['num_vertices', 'geo_system', 'unit', 'fill'],
    run: (c) => {
      const center = position(c, 0);
      const radius = num(c, 1) * unitScale(c);
      const vertices = optNum(c, 'num_vertices') ?? 32;
      return circle(c, center, radius, vertices, optBool(c, 'fill') ?? true);
    },
  },
  GET_INTERSECTING: {
    arity: [2, 2],
    optargs: ['index'],
    literal: { optargs: ['index'] },
    run: (c) => {
      const { table, index, rows: all, source } = geoIndex(c, 'get_intersecting');
      const g = asGeoJson(geometry(c, 1));
      const rows = all.filter((row) =>
        c.env.faults.has('get-intersecting-ignores-geometry') ||
        indexKeys(c, table, index, row as Obj).some((k) => isObject(k) && k.$reql_type$ === 'GEOMETRY' && booleanIntersects(asGeoJson(k as Geometry), g)),
      );
      return Stream.of(rows, false, source);
    },
  },
  FILL: {
    arity: [1, 1],
    run: (c) => {
      const g = geometry(c, 0);
      if (g.type !== 'LineString') throw logicError('FILL expects a LINE.').at({ pos: 0 });
      return make('Polygon', [closeRing(g.coordinates as Position[])]);
    },
  },
  GET_NEAREST: {
    arity: [2, 2],
    optargs: ['index', 'max_results', 'max_dist', 'geo_system', 'unit'],
    literal: { optargs: ['index'] },
    run: (c) => {
      const { table, index, rows } = geoIndex(c, 'get_nearest');
      const point = geometry(c, 1);
      const scale = unitScale(c);
      const maxResults = c.env.faults.has('get-nearest-ignores-max-results') ? Infinity : (optNum(c, 'max_results') ?? 100);
      const maxDist = (optNum(c, 'max_dist') ?? 100_000) * scale;
      const found: { dist: number; doc: JsValue }[] = [];
      for (const row of rows) {
        const geoms = indexKeys(c, table, index, row as Obj).filter((k) => isObject(k) && k.$reql_type$ === 'GEOMETRY') as Geometry[];
        if (!geoms.length) continue;
        const d = Math.min(...geoms.map((g) => distance(c, point, g)));
        if (d <= maxDist) found.push({ dist: d / scale, doc: row });
      }
      found.sort((a, b) => a.dist - b.dist);
      return found.slice(0, maxResults) as unknown as JsValue;
    },
  },
  POLYGON_SUB: {
    arity: [2, 2],
    run: (c) => {
      const [outer, inner] = [geometry(c, 0), geometry(c, 1)];
      if (outer.type !== 'Polygon' || inner.type !== 'Polygon') throw logicError('POLYGON_SUB expects two POLYGONs.');
      // As RethinkDB (geo/operations.yaml): the hole has no holes and lies inside the shell.
      for (const [g, at] of [[outer, 0], [inner, 1]] as const) {
        if ((g.coordinates as JsValue[]).length > 1) throw logicError('Expected a Polygon with only an outer shell.  This one has holes.').at({ pos: at });
      }
      if (!booleanContains(asGeoJson(outer), asGeoJson(inner))) throw logicError('The second argument to `polygon_sub` is not contained in the first one.').at({ pos: 0 });
      return make('Polygon', [...(outer.coordinates as JsValue[]), (inner.coordinates as JsValue[])[0]]);
    },
  },
});
