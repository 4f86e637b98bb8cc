// Attribute namespaces and definitions (/attribute), attribute values on projects and packages
// (/source/.../_attribute) and comments (/comments, /comment) of build-ref (document: "Attribute
// definitions and comments", and the _attribute routes of the two Sources sections).
import { attr, elements, parseXml, rootOf, text } from '../../../src/clients/xml.ts';
import { canWrite, notFound, ok, refuse, type Api, type Call } from '../api.ts';
import { areaState, type World } from '../world.ts';
import { findRequest } from './requests.ts';

interface Comment {
  id: number;
  project: string;
  package: string;
  who: string;
  body: string;
}

interface Attributes {
  /** namespace -> attribute names defined in it. */
  namespaces: Map<string, Set<string>>;
  /** `project` or `project/package` -> `namespace:name` -> values. */
  values: Map<string, Map<string, string[]>>;
  comments: Map<number, Comment>;
}

const state = (world: World) =>
  areaState<Attributes>(world, 'attributes', () => ({
    // The attributes the document names with its neutral prefix `SVC:` (line 32), in the world's
    // namespace (world.attributeNamespace: `OBS` on the variant).
    namespaces: new Map([[world.attributeNamespace, new Set(['Maintained', 'OwnerRootProject', 'DelegateRequestTarget'])]]),
    // The owner root projects of /search/owner (line 137 `attribute`, default SVC:OwnerRootProject): see world.ts.
    values: new Map([
      ['conformance:fixture', new Map([[svc(world, 'Maintained'), []], [svc(world, 'OwnerRootProject'), []]])],
      ['conformance:owners', new Map([[svc(world, 'OwnerRootProject'), []]])],
    ]),
    comments: new Map([[1, { id: 1, project: 'conformance:fixture', package: 'hello', who: 'maintainer', body: 'Looks good to me.' }]]),
  }));

/** `<namespace>:<name>` of an attribute the document names as `SVC:<name>`, in this world's namespace. */
export const svc = (world: World, name: string) => `${world.attributeNamespace}:${name}`;

/** How long after answering the variant carries out a DELETE of an attribute namespace or definition (docs/open-choices.md). */
const VARIANT_ATTRIBUTE_DELETE_MS = 300;

const adminOnly = (call: Call, what: string) => {
  if (!call.user?.admin) throw refuse(403, 'no_permission', `${what} is for admins`);
};

export function registerAttributes(api: Api): void {
  const { world } = api;
  // The variant's owner root project sets the defaults of an owner search the other way
  // (docs/open-choices.md): bugowners only, and no devel package lookup, as the build service's
  // attribute values `BugownerOnly` and `DisableDevel` do.
  if (api.variant) state(world).values.get('conformance:owners')?.set(svc(world, 'OwnerRootProject'), ['BugownerOnly', 'DisableDevel']);
  const ns = (call: Call) => {
    const names = state(world).namespaces.get(call.params.namespace);
    if (!names) throw notFound(`attribute namespace '${call.params.namespace}' does not exist`);
    return names;
  };
  // The listings as the service writes them (attribute_controller.rb `index`): <directory count>;
  // an unknown namespace is refused 400 unknown_namespace there (the document states no code).
  const listing = (names: Iterable<string>) => {
    const entry = [...names].map((n) => ({ '@name': n }));
    return { xml: { directory: { '@count': String(entry.length), entry } } };
  };
  /** Removes every value of `namespace:name` (or of the whole namespace) in projects and packages. */
  const dropValues = (prefix: string, whole: boolean) => {
    for (const byName of state(world).values.values()) for (const key of [...byName.keys()]) if (whole ? key.startsWith(`${prefix}:`) : key === prefix) byName.delete(key);
  };

  api.route('GET', '/attribute/', () => listing(state(world).namespaces.keys()));
  api.route('GET', '/attribute/:namespace/', (call) => {
    if (!state(world).namespaces.has(call.params.namespace)) throw refuse(400, 'unknown_namespace', `Attribute namespace does not exist: ${call.params.namespace}`);
    return listing(ns(call));
  });
  api.route('GET', '/attribute/:namespace/_meta', (call) => {
    ns(call);
    return { xml: { namespace: { '@name': call.params.namespace } } };
  });
  api.route('PUT', '/attribute/:namespace/_meta', (call) => {
    adminOnly(call, 'writing an attribute namespace');
    if (rootOf(parseXml(call.body))?.name !== 'namespace') throw refuse(400, 'invalid_document', 'body must be a <namespace> document');
    if (!state(world).namespaces.has(call.params.namespace)) state(world).namespaces.set(call.params.namespace, new Set());
    return ok();
  });
  api.route('DELETE', '/attribute/:namespace/_meta', (call) => {
    adminOnly(call, 'deleting an attribute namespace');
    ns(call);
    // "delete removes all attributes below"
    const namespace = call.params.namespace;
    const remove = () => {
      state(world).namespaces.delete(namespace);
      if (!call.faults.has('namespace-delete-keeps-attributes')) dropValues(namespace, true);
    };
    // The variant removes the namespace and what is below it shortly after answering (docs/open-choices.md).
    if (call.variant) setTimeout(remove, VARIANT_ATTRIBUTE_DELETE_MS).unref();
    else remove();
    return ok();
  });
  api.route('GET', '/attribute/:namespace/:name/_meta', (call) => {
    if (!ns(call).has(call.params.name)) throw notFound(`attribute '${call.params.namespace}:${call.params.name}' does not exist`);
    return { xml: { definition: { '@namespace': call.params.namespace, '@name': call.params.name, count: '1' } } };
  });
  api.route('PUT', '/attribute/:namespace/:name/_meta', (call) => {
    adminOnly(call, 'writing an attribute definition');
    if (rootOf(parseXml(call.body))?.name !== 'definition') throw refuse(400, 'invalid_document', 'body must be a <definition> document');
    ns(call).add(call.params.name);
    return ok();
  });
  api.route('DELETE', '/attribute/:namespace/:name/_meta', (call) => {
    adminOnly(call, 'deleting an attribute definition');
    if (!ns(call).has(call.params.name)) throw notFound(`attribute '${call.params.namespace}:${call.params.name}' does not exist`);
    const names = ns(call);
    const { namespace, name } = call.params;
    const remove = () => {
      names.delete(name);
      // "delete removes all values in projects and packages"
      if (!call.faults.has('attribute-delete-keeps-values')) dropValues(`${namespace}:${name}`, false);
    };
    // The variant removes the definition and its values shortly after answering (docs/open-choices.md).
    if (call.variant) setTimeout(remove, VARIANT_ATTRIBUTE_DELETE_MS).unref();
    else remove();
    return ok();
  });

  // ---- values on projects and packages --------------------------------------------------------------
  const holder = (call: Call) => {
    const { project, package: pkg, binary } = call.params;
    const p = world.projects.get(project);
    if (!p || p.deleted) throw notFound(`project '${project}' does not exist`);
    if (pkg && (!p.packages.get(pkg) || p.packages.get(pkg)!.deleted)) throw notFound(`package '${project}/${pkg}' does not exist`);
    return [project, pkg, binary].filter(Boolean).join('/');
  };
  const valuesOf = (key: string) => {
    const s = state(world);
    if (!s.values.has(key)) s.values.set(key, new Map());
    return s.values.get(key)!;
  };
  const render = (byName: Map<string, string[]>, only?: string) => ({
    attributes: {
      attribute: [...byName]
        .filter(([k]) => !only || k === only)
        .map(([k, vs]) => ({ '@namespace': k.split(':')[0], '@name': k.split(':').slice(1).join(':'), value: vs })),
    },
  });
  for (const base of ['/source/:project', '/source/:project/:package', '/source/:project/:package/:binary']) {
    api.route('GET', `${base}/_attribute`, (call) => ({ xml: render(valuesOf(holder(call))) }));
    api.route('GET', `${base}/_attribute/:attribute`, (call) => ({ xml: render(valuesOf(holder(call)), call.params.attribute) }));
    api.route('POST', `${base}/_attribute/:attribute`, (call) => {
      const key = holder(call);
      if (!canWrite(call.user, call.params.project)) throw refuse(403, 'no_permission', `no permission to change attributes of '${call.params.project}'`);
      const root = rootOf(parseXml(call.body));
      if (root?.name !== 'attributes') throw refuse(400, 'invalid_document', 'body must be an <attributes> document');
      for (const a of elements(root.node, 'attribute')) {
        const name = `${attr(a, 'namespace')}:${attr(a, 'name')}`;
        if (!state(world).namespaces.get(attr(a, 'namespace') ?? '')?.has(attr(a, 'name') ?? '')) throw refuse(404, 'unknown_attribute', `attribute '${name}' is not defined`);
        valuesOf(key).set(name, elements(a, 'value').map((v) => text(v)));
      }
      return ok();
    });
    api.route('DELETE', `${base}/_attribute/:attribute`, (call) => {
      const key = holder(call);
      if (!canWrite(call.user, call.params.project)) throw refuse(403, 'no_permission', `no permission to change attributes of '${call.params.project}'`);
      if (!call.faults.has('attribute-value-delete-noop')) valuesOf(key).delete(call.params.attribute);
      return ok();
    });
  }

  // ---- comments ------------------------------------------------------------------------------------
  api.route('GET', '/comments/package/:project/:pname', (call) => {
    if (call.faults.has('comments-as-status')) return ok();
    const list = [...state(world).comments.values()].filter((c) => c.project === call.params.project && c.package === call.params.pname);
    return { xml: { comments: { '@project': call.params.project, '@package': call.params.pname, comment: list.map((c) => ({ '@id': String(c.id), '@who': c.who, '#text': c.body })) } } };
  });
  // Comments of projects and requests: not in the document (it lists comments of packages), but
  // osc's `request show` reads /comments/request/<id>. The build service's layout, no comments here.
  api.route('GET', '/comments/project/:project', (call) => {
    const list = [...state(world).comments.values()].filter((c) => c.project === call.params.project && !c.package);
    return { xml: { comments: { '@project': call.params.project, comment: list.map((c) => ({ '@id': String(c.id), '@who': c.who, '#text': c.body })) } } };
  });
  api.route('GET', '/comments/request/:id', (call) => {
    const r = findRequest(call, call.params.id);
    return { xml: { comments: { '@request': String(r.id) } } };
  });
  api.route('DELETE', '/comment/:id', (call) => {
    const c = state(world).comments.get(Number(call.params.id));
    if (!c) throw notFound(`comment ${call.params.id} does not exist`);
    if (c.who !== call.user?.login && !call.user?.admin) throw refuse(403, 'no_permission', 'only the author or an admin may delete a comment');
    state(world).comments.delete(c.id);
    return ok();
  });
}

/** The projects and packages (`project` or `project/package`) that carry the attribute `name` (`namespace:name`). */
export function holdersOf(world: World, name: string): string[] {
  return [...state(world).values].filter(([, attrs]) => attrs.has(name)).map(([key]) => key);
}

/** The values of the attribute `name` (`namespace:name`) on a project or package (`project` or `project/package`); undefined where it is not set. */
export function valuesOf(world: World, holder: string, name: string): string[] | undefined {
  return state(world).values.get(holder)?.get(name);
}
