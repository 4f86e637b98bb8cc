// /about, /architectures, /issue_trackers, /distributions and /configuration of build-ref
// (document: "About, architectures, issue trackers, distributions", "Configuration").
import { attr, elements, parseXml, rootOf, text, type XmlNode } from '../../../src/clients/xml.ts';
import { notFound, ok, refuse, type Api, type Call } from '../api.ts';
import { areaState, type World } from '../world.ts';

interface Distribution {
  id: string;
  /** The distribution's own fields as given (name, version, project, repository, …). */
  fields: Record<string, string>;
  /** From a remote instance: readable, not updatable here. */
  remote: boolean;
}

interface Catalogue {
  trackers: Map<string, Record<string, string>>;
  distributions: Map<string, Distribution>;
}

const KNOWN_ARCHITECTURES = ['aarch64', 'armv7l', 'i586', 'ppc64le', 'riscv64', 's390x', 'x86_64'];
/** What this instance builds for (the schedulers element of /configuration). */
const SCHEDULERS = ['x86_64', 'aarch64'];

/** How long after answering the variant carries out a PUT or DELETE of an issue tracker (docs/open-choices.md). */
const VARIANT_TRACKER_MS = 300;

const catalogue = (world: World) =>
  areaState<Catalogue>(world, 'catalogue', () => ({
    trackers: new Map([['bnc', { name: 'bnc', kind: 'bugzilla', description: 'Bugzilla', url: 'https://bugzilla.example.test', 'show-url': 'https://bugzilla.example.test/show_bug.cgi?id=@@@', regex: 'bnc#(\\d+)', label: 'bnc#@@@' }]]),
    distributions: new Map([
      ['1', { id: '1', fields: { vendor: 'example', version: '15', name: 'Example Linux 15', project: 'conformance:fixture', repository: 'standard', reponame: 'example_15', link: 'https://example.test/linux/15' }, remote: false }],
      ['2', { id: '2', fields: { vendor: 'upstream', version: 'rolling', name: 'Upstream Rolling', project: 'remote:upstream', repository: 'standard', reponame: 'upstream', link: 'https://upstream.example.test/' }, remote: true }],
    ]),
  }));

/** Child elements of the body's root as name -> text (the fields of a tracker or distribution). */
function fieldsOf(body: string, rootName: string): Record<string, string> {
  const root = rootOf(parseXml(body));
  if (root?.name !== rootName) throw refuse(400, 'invalid_document', `body must be a <${rootName}> document`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(root.node)) if (!k.startsWith('@') && k !== '#text') out[k] = leafText(Array.isArray(v) ? v[0] : v);
  return out;
}

/** A distribution as the build service writes it (its distributions schema): `vendor` and `version` attributes, the rest child elements. */
const DISTRIBUTION_ATTRIBUTES = ['vendor', 'version'];
const distributionXml = (d: Distribution) => ({
  '@vendor': d.fields.vendor,
  '@version': d.fields.version,
  '@id': d.id,
  '@origin': d.remote ? 'remote' : 'local',
  ...Object.fromEntries(Object.entries(d.fields).filter(([k]) => !DISTRIBUTION_ATTRIBUTES.includes(k))),
});

/** The fields of a <distribution> element: `vendor` and `version` read as attributes (or, as written before, children). */
function distributionFields(el: XmlNode): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(el)) if (!k.startsWith('@') && k !== '#text') fields[k] = leafText(Array.isArray(v) ? v[0] : v);
  for (const a of DISTRIBUTION_ATTRIBUTES) if (attr(el, a) !== undefined) fields[a] = attr(el, a)!;
  return fields;
}

function distributionBody(body: string): Record<string, string> {
  const root = rootOf(parseXml(body));
  if (root?.name !== 'distribution') throw refuse(400, 'invalid_document', 'body must be a <distribution> document');
  return distributionFields(root.node);
}

/** The text of a parsed element (a leaf element parses to its string). */
const leafText = (v: unknown) => (v !== null && typeof v === 'object' ? text(v as never) : String(v ?? ''));

export function registerCatalogue(api: Api): void {
  const { world } = api;
  const adminOnly = (call: Call, what: string) => {
    if (!call.user?.admin) throw refuse(403, 'no_permission', `${what} is for admins`);
  };

  api.route('GET', '/about', (call) => {
    if (call.faults.has('about-as-status')) return ok();
    return { xml: { about: { title: 'build-ref', description: 'Reference server of the build-service API', revision: '2.9' } } };
  });
  api.route('GET', '/architectures', (call) => {
    const known = call.faults.has('architectures-omit-fixture-arch') ? KNOWN_ARCHITECTURES.filter((a) => !SCHEDULERS.includes(a)) : KNOWN_ARCHITECTURES;
    // <directory count> as the service writes it (architectures_controller.rb `index`).
    return { xml: { directory: { '@count': String(known.length), entry: known.map((a) => ({ '@name': a })) } } };
  });
  api.route('GET', '/configuration', (call) => {
    if (call.faults.has('configuration-admin-only')) adminOnly(call, 'reading the configuration');
    const schedulers = call.faults.has('configuration-no-schedulers') ? {} : { schedulers: { arch: SCHEDULERS } };
    return { xml: { configuration: { title: 'build-ref', description: 'Reference server', name: 'build-ref', registration: 'allow', ...schedulers } } };
  });

  // ---- issue trackers ---------------------------------------------------------------------------
  const trackerOf = (call: Call, name = call.params.name) => {
    const t = catalogue(world).trackers.get(name);
    if (!t) throw notFound(`issue tracker '${name}' does not exist`);
    return t;
  };
  api.route('GET', '/issue_trackers', () => ({ xml: { 'issue-trackers': { 'issue-tracker': [...catalogue(world).trackers.values()] } } }));
  api.route('POST', '/issue_trackers', (call) => {
    adminOnly(call, 'creating an issue tracker');
    const fields = fieldsOf(call.body, 'issue-tracker');
    if (!fields.name) throw refuse(400, 'invalid_document', 'an issue tracker needs a <name>');
    if (catalogue(world).trackers.has(fields.name)) throw refuse(400, 'exists', `issue tracker '${fields.name}' exists`);
    catalogue(world).trackers.set(fields.name, fields);
    return ok();
  });
  api.route('GET', '/issue_trackers/:name', (call) => ({ xml: { 'issue-tracker': trackerOf(call) } }));
  api.route('PUT', '/issue_trackers/:name', (call) => {
    adminOnly(call, 'updating an issue tracker');
    const t = trackerOf(call);
    if (!call.faults.has('issue-tracker-put-ignored')) {
      const fields = fieldsOf(call.body, 'issue-tracker');
      const update = () => Object.assign(t, fields, { name: t.name });
      // The variant updates the tracker shortly after answering (docs/open-choices.md).
      if (call.variant) setTimeout(update, VARIANT_TRACKER_MS).unref();
      else update();
    }
    return ok();
  });
  api.route('DELETE', '/issue_trackers/:name', (call) => {
    adminOnly(call, 'deleting an issue tracker');
    trackerOf(call);
    if (!call.faults.has('issue-tracker-delete-noop')) {
      const name = call.params.name;
      const remove = () => catalogue(world).trackers.delete(name);
      // The variant deletes the tracker shortly after answering (docs/open-choices.md).
      if (call.variant) setTimeout(remove, VARIANT_TRACKER_MS).unref();
      else remove();
    }
    return ok();
  });
  api.route('GET', '/issue_trackers/:tracker/issues/:issue', (call) => {
    const t = trackerOf(call, call.params.tracker);
    return { xml: { issue: { name: call.params.issue, tracker: t.name, label: (t.label ?? '@@@').replace('@@@', call.params.issue), url: (t['show-url'] ?? '').replace('@@@', call.params.issue) } } };
  });

  // ---- distributions ------------------------------------------------------------------------------
  const local = () => [...catalogue(world).distributions.values()].filter((d) => !d.remote);
  api.route('GET', '/distributions', () => ({ xml: { distributions: { distribution: local().map(distributionXml) } } }));
  api.route('GET', '/distributions/include_remotes', (call) => {
    const all = [...catalogue(world).distributions.values()];
    const shown = call.faults.has('include-remotes-drops-local') ? all.filter((d) => d.remote) : all;
    return { xml: { distributions: { distribution: shown.map(distributionXml) } } };
  });
  api.route('GET', '/distributions/:id', (call) => {
    const d = catalogue(world).distributions.get(call.params.id);
    if (!d) throw notFound(`distribution ${call.params.id} does not exist`);
    return { xml: { distribution: distributionXml(d) } };
  });
  api.route('POST', '/distributions', (call) => {
    adminOnly(call, 'creating a distribution');
    const d: Distribution = { id: String(world.nextId()), fields: distributionBody(call.body), remote: false };
    catalogue(world).distributions.set(d.id, d);
    return { xml: { status: { '@code': 'ok', summary: 'Ok', data: { '@name': 'id', '#text': d.id } } } };
  });
  api.route('PUT', '/distributions/:id', (call) => {
    adminOnly(call, 'updating a distribution');
    const d = catalogue(world).distributions.get(call.params.id);
    if (!d) throw notFound(`distribution ${call.params.id} does not exist`);
    // "updating a distribution from a remote instance is not allowed"
    if (d.remote) throw refuse(400, 'remote_distribution', `distribution ${d.id} comes from a remote instance and cannot be updated here`);
    d.fields = distributionBody(call.body);
    return ok();
  });
  api.route('POST', '/distributions/bulk_replace', (call) => {
    adminOnly(call, 'replacing the distributions');
    const root = rootOf(parseXml(call.body));
    if (root?.name !== 'distributions') throw refuse(400, 'invalid_document', 'body must be a <distributions> document');
    const remotes = [...catalogue(world).distributions.values()].filter((d) => d.remote);
    const next = new Map(remotes.map((d) => [d.id, d] as const));
    for (const el of elements(root.node, 'distribution')) {
      const fields = distributionFields(el);
      const id = String(world.nextId());
      next.set(id, { id, fields, remote: false });
    }
    catalogue(world).distributions = next;
    return ok();
  });
}
