// The in-memory state of build-ref: users with passwords, tokens, projects with packages and
// files, seeded fresh for each server.
import { randomBytes } from 'node:crypto';
import { seedBuilds } from './areas/build.ts';
import type { BuildFixtures } from '../../src/config/types.ts';

export interface User {
  login: string;
  password: string;
  admin: boolean;
  /** Holds the permissions the document mentions (status messages, statistics redirect). */
  privileged: boolean;
  /** Registered but not confirmed users are listed by GET /person but not with `confirmed`. */
  state?: 'confirmed' | 'unconfirmed' | 'locked' | 'deleted';
  email?: string;
  realname?: string;
}

export interface Token {
  id: number;
  string: string;
  login: string;
  operation: 'runservice' | 'rebuild' | 'release' | 'workflow';
  project?: string;
  package?: string;
}

export interface Revision {
  rev: number;
  time: number;
  user: string;
  comment: string;
  files: Map<string, string>;
}

export interface Package {
  name: string;
  meta: string;
  /** Committed files (the latest revision). */
  files: Map<string, string>;
  /** Files uploaded with rev=upload and not yet committed. */
  uploads: Map<string, string>;
  revisions: Revision[];
  deleted: boolean;
  locked: boolean;
}

export interface Project {
  name: string;
  meta: string;
  config: string;
  packages: Map<string, Package>;
  deleted: boolean;
  locked: boolean;
  flags: { flag: string; status: string; repository?: string; arch?: string }[];
  repositories: { name: string; archs: string[] }[];
}

export interface World {
  users: Map<string, User>;
  tokens: Map<string, Token>;
  projects: Map<string, Project>;
  /** Area modules keep their own collections here, keyed by area name. */
  areas: Map<string, unknown>;
  /**
   * The namespace of the attributes the document names with its neutral prefix `SVC:` (line 5):
   * `SVC` on the reference, `OBS` (as the build service names it) on the variant.
   */
  attributeNamespace: string;
  nextId: () => number;
}

export function areaState<T>(world: World, area: string, init: () => T): T {
  if (!world.areas.has(area)) world.areas.set(area, init());
  return world.areas.get(area) as T;
}

export function newPackage(name: string, project: string, files: Record<string, string> = {}, user = 'admin'): Package {
  const pkg: Package = {
    name,
    meta: `<package name="${name}" project="${project}"><title>${name}</title><description/></package>`,
    files: new Map(),
    uploads: new Map(),
    revisions: [],
    deleted: false,
    locked: false,
  };
  if (Object.keys(files).length) commit(pkg, new Map(Object.entries(files)), user, 'initial');
  return pkg;
}

export function newProject(name: string, meta?: string): Project {
  return {
    name,
    meta: meta ?? `<project name="${name}"><title>${name}</title><description/></project>`,
    config: '',
    packages: new Map(),
    deleted: false,
    locked: false,
    flags: [],
    repositories: [],
  };
}

export function commit(pkg: Package, files: Map<string, string>, user: string, comment: string): Revision {
  const rev: Revision = { rev: pkg.revisions.length + 1, time: Math.floor(Date.now() / 1000), user, comment, files: new Map(files) };
  pkg.revisions.push(rev);
  pkg.files = new Map(files);
  return rev;
}

export interface Seeded {
  users: { user: { username: string; password: string }; admin: { username: string; password: string }; privileged: { username: string; password: string } };
  token: string;
  fixtures: Required<Pick<BuildFixtures, 'project' | 'package' | 'repository' | 'arch' | 'unconfirmedUser' | 'worker' | 'ownedBinary' | 'ownerRootProject' | 'ownerRoles' | 'ownerDevel' | 'product' | 'built' | 'attributeNamespace' | 'publishedProject'>> & BuildFixtures;
}

/** `fixed`: passwords by role and a runservice token to seed instead of random ones (`conformance serve build`). */
export function seedWorld(fixed: { passwords?: { user?: string; admin?: string; privileged?: string }; token?: string; attributeNamespace?: string } = {}): { world: World; seeded: Seeded } {
  let id = 100;
  const world: World = { users: new Map(), tokens: new Map(), projects: new Map(), areas: new Map(), nextId: () => ++id, attributeNamespace: fixed.attributeNamespace ?? 'SVC' };
  const pw = () => randomBytes(12).toString('hex');
  const add = (login: string, admin: boolean, privileged: boolean, password = pw()) => {
    const u: User = { login, password, admin, privileged };
    world.users.set(login, u);
    world.projects.set(`home:${login}`, newProject(`home:${login}`));
    return u;
  };
  const tux = add('tux', false, false, fixed.passwords?.user);
  const admin = add('Admin', true, true, fixed.passwords?.admin);
  const maint = add('maintainer', false, true, fixed.passwords?.privileged);
  add('newcomer', false, false).state = 'unconfirmed';
  const token: Token = { id: world.nextId(), string: fixed.token ?? randomBytes(20).toString('hex'), login: 'tux', operation: 'runservice' };
  world.tokens.set(token.string, token);

  // The meta declares the repository the build area lists (osc reads repositories from the meta).
  const fixture = newProject('conformance:fixture', '<project name="conformance:fixture"><title>conformance:fixture</title><description/><person userid="Admin" role="maintainer"/><repository name="standard"><arch>x86_64</arch><arch>aarch64</arch></repository></project>');
  fixture.repositories.push({ name: 'standard', archs: ['x86_64', 'aarch64'] });
  fixture.packages.set('hello', newPackage('hello', fixture.name, { 'hello.spec': 'Name: hello\nVersion: 1.0\nRelease: 0\nBuildRequires: world\n', 'hello.c': 'int main(void) { return 0; }\n' }));
  fixture.packages.set('world', newPackage('world', fixture.name, { 'world.spec': 'Name: world\nVersion: 2.0\nRelease: 0\n' }));
  fixture.packages.set('tools', newPackage('tools', fixture.name, { 'tools.spec': 'Name: tools\nVersion: 0.3\nRelease: 0\nExcludeArch: aarch64\n' }));
  fixture.packages.set('legacy', newPackage('legacy', fixture.name, { 'legacy.c': 'int main(void) { return 1; }\n' }));
  world.projects.set(fixture.name, fixture);
  // hello build-requires world: dependency information of hello names world (as a dependency).
  // Build results in every code the document lists, two per package.
  seedBuilds(world, fixture, {
    hello: { x86_64: 'succeeded', aarch64: 'building' },
    world: { x86_64: 'failed', aarch64: 'scheduled' },
    tools: { x86_64: 'disabled', aarch64: 'excluded' },
    legacy: { x86_64: 'broken', aarch64: 'unresolvable' },
  });

  // An owner root project whose link hierarchy builds the binary `owned` at two levels: in the
  // root, owned by the package's maintainer and bugowner, and in the project it links to, owned
  // by that project's maintainer and bugowner (/search/owner `limit`: 1 the first, 0 both, -1 the
  // deepest; `filter`: at the first, Admin maintains and tux is the bugowner, fixtures.ownerRoles).
  // The root also builds `devowned`, whose package names a devel package in a project outside the
  // hierarchy, owned by others (<devel project package/>; /search/owner `devel`, fixtures.ownerDevel).
  // Each is owned in both roles, so that either default of `filter` finds an owner (docs/open-choices.md).
  const owners = newProject('conformance:owners', '<project name="conformance:owners"><title>conformance:owners</title><description/><link project="conformance:owners:base"/></project>');
  owners.packages.set('owned', { ...newPackage('owned', owners.name, { 'owned.spec': 'Name: owned\nVersion: 1.0\nRelease: 0\n' }), meta: '<package name="owned" project="conformance:owners"><title>owned</title><description/><person userid="Admin" role="maintainer"/><person userid="tux" role="bugowner"/></package>' });
  owners.packages.set('devowned', { ...newPackage('devowned', owners.name, { 'devowned.spec': 'Name: devowned\nVersion: 1.0\nRelease: 0\n' }), meta: '<package name="devowned" project="conformance:owners"><title>devowned</title><description/><devel project="conformance:owners:devel" package="devowned"/><person userid="tux" role="maintainer"/><person userid="tux" role="bugowner"/></package>' });
  const ownersBase = newProject('conformance:owners:base', '<project name="conformance:owners:base"><title>conformance:owners:base</title><description/><person userid="Admin" role="maintainer"/><person userid="maintainer" role="bugowner"/></project>');
  ownersBase.packages.set('owned', newPackage('owned', ownersBase.name, { 'owned.spec': 'Name: owned\nVersion: 0.9\nRelease: 0\n' }));
  const ownersDevel = newProject('conformance:owners:devel', '<project name="conformance:owners:devel"><title>conformance:owners:devel</title><description/></project>');
  ownersDevel.packages.set('devowned', { ...newPackage('devowned', ownersDevel.name, { 'devowned.spec': 'Name: devowned\nVersion: 1.1\nRelease: 0\n' }), meta: '<package name="devowned" project="conformance:owners:devel"><title>devowned</title><description/><person userid="Admin" role="maintainer"/><person userid="maintainer" role="bugowner"/></package>' });
  world.projects.set(owners.name, owners);
  world.projects.set(ownersBase.name, ownersBase);
  world.projects.set(ownersDevel.name, ownersDevel);

  // An already-built project (fixtures.built): two packages succeeded, with binaries in the build
  // and the publish area, which the destructive build control checks wipe and unpublish.
  const built = newProject('conformance:built', '<project name="conformance:built"><title>conformance:built</title><description/><repository name="standard"><arch>x86_64</arch></repository></project>');
  built.repositories.push({ name: 'standard', archs: ['x86_64'] });
  for (const name of ['alpha', 'beta']) built.packages.set(name, newPackage(name, built.name, { [`${name}.spec`]: `Name: ${name}\nVersion: 1.0\nRelease: 0\n` }));
  world.projects.set(built.name, built);
  seedBuilds(world, built, { alpha: { x86_64: 'succeeded' }, beta: { x86_64: 'succeeded' } });

  // Two published binaries in a project no check wipes or unpublishes (fixtures.publishedProject:
  // the `limit` and `withdownloadurl` of the published searches, line 136).
  const published = newProject('conformance:published', '<project name="conformance:published"><title>conformance:published</title><description/><repository name="standard"><arch>x86_64</arch></repository></project>');
  published.repositories.push({ name: 'standard', archs: ['x86_64'] });
  for (const name of ['first', 'second']) published.packages.set(name, newPackage(name, published.name, { [`${name}.spec`]: `Name: ${name}\nVersion: 1.0\nRelease: 0\n` }));
  world.projects.set(published.name, published);
  seedBuilds(world, published, { first: { x86_64: 'succeeded' }, second: { x86_64: 'succeeded' } });

  // A product definition (view=products, productrepositories; the project's productlist): the
  // build service keeps it in the package `_product` as a `.product` file.
  const products = newProject('conformance:products');
  products.packages.set('_product', newPackage('_product', products.name, { 'simple.product': SIMPLE_PRODUCT }));
  world.projects.set(products.name, products);

  return {
    world,
    seeded: {
      users: {
        user: { username: tux.login, password: tux.password },
        admin: { username: admin.login, password: admin.password },
        privileged: { username: maint.login, password: maint.password },
      },
      token: token.string,
      fixtures: {
        project: fixture.name,
        package: 'hello',
        repository: 'standard',
        arch: 'x86_64',
        unconfirmedUser: 'newcomer',
        worker: 'x86_64:w1',
        ownedBinary: 'owned',
        ownerRootProject: owners.name,
        ownerRoles: { maintainer: 'Admin', bugowner: 'tux' },
        ownerDevel: { binary: 'devowned', develProject: ownersDevel.name },
        product: { project: products.name, package: '_product', name: 'simple' },
        built: { project: built.name, package: 'alpha', repository: 'standard', arch: 'x86_64' },
        publishedProject: published.name,
        attributeNamespace: world.attributeNamespace,
      },
    },
  };
}

/** A small product definition in the build service's format (productdefinition: products, updates). */
const SIMPLE_PRODUCT = `<?xml version="1.0" encoding="UTF-8"?>
<productdefinition xmlns:xi="http://www.w3.org/2001/XInclude">
  <products>
    <product id="simple">
      <vendor>conformance</vendor>
      <name>simple</name>
      <version>1.0</version>
      <release>0</release>
      <cpe>cpe:/o:conformance:simple:1.0</cpe>
      <summary>A product of the conformance fixture</summary>
    </product>
  </products>
  <updates>
    <repository project="conformance:fixture" name="standard"/>
  </updates>
</productdefinition>
`;
