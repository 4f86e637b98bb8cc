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
import { logicError } from '../errors.ts';
import { defineTerms, type Call } from '../evaluate.ts';
import { indexKeys, requireIndex } from '../indexes.ts';
import { Stream, typeName } from '../values.ts';

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

function circle(c: Call, center: Position, radius: number, vertices: number, fill: boolean): Geometry {
  const geo = model(c);
  const ring: Position[] = [];
  for (let k = 0; k < vertices; k++) {
    const d = geo.Direct(center[1], center[0], (360 * k) / vertices, radius);
    ring.push([d.lon2!, d.lat2!]);
  }
  const closed = closeRing(ring);
  return fill ? make('Polygon', [closed]) : make('LineString', closed);
}

defineTerms({
  GEOJSON: {
    arity: [1, 1],
    run: (c) => {
      const g = obj(c, 0);
      if (!['Point', 'LineString', 'Polygon'].includes(g.type as string)) throw logicError(`Unrecognized GeoJSON type \`${String(g.type)}\`.`).at({ pos: 0 });
      return make(g.type as string, g.coordinates);
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
    run: (c) => make('LineString', Array.from({ length: c.argc }, (_, i) => position(c, i))),
  },
  POLYGON: {
    arity: [3, Infinity],
    run: (c) => make('Polygon', [closeRing(Array.from({ length: c.argc }, (_, i) => position(c, i)))]),
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
      const s = seq(c, 0);
      if (!s.source) throw logicError('GET_INTERSECTING expects a table.').at({ pos: 0 });
      const table = c.env.store.table(s.source);
      const index = optString(c, 'index');
      if (index === undefined) throw logicError('GET_INTERSECTING requires an `index`.');
      requireIndex(table, index);
      const g = asGeoJson(geometry(c, 1));
      const rows = readAll(s).filter((row) =>
        c.env.faults.has('get-intersecting-ignores-geometry') ||
        indexKeys(c, table, index, row as Obj).some((k) => isObject(k) && k.$reql_type$ === 'GEOMETRY' && booleanIntersects(asGeoJson(k as Geometry), g)),
      );
      return Stream.of(rows, false, s.source);
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
      const s = seq(c, 0);
      if (!s.source) throw logicError('GET_NEAREST expects a table.').at({ pos: 0 });
      const table = c.env.store.table(s.source);
      const index = optString(c, 'index');
      if (index === undefined) throw logicError('GET_NEAREST requires an `index`.');
      requireIndex(table, index);
      const point = geometry(c, 1);
      const scale = unitScale(c);
      const maxResults = c.env.faults.has('get-nearest-ignores-max-results') ? Infinity : (optNum(c, 'max_results') ?? 100);
      const maxDist = (optNum(c, 'max_dist') ?? 100_000) * scale;
      const found: { dist: number; doc: JsValue }[] = [];
      for (const row of readAll(s)) {
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
      return make('Polygon', [...(outer.coordinates as JsValue[]), (inner.coordinates as JsValue[])[0]]);
    },
  },
});
