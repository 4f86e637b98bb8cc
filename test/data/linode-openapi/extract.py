# Cuts the part of Linode's OpenAPI description (linode/linode-api-docs openapi.yaml, v4.139.0) that
# cloud-api.md covers: the account and managed-database paths (their responses and parameters) and
# every component they refer to, without prose (description, summary, examples, CLI hints).
# Usage: python3 extract.py openapi.yaml > openapi-subset.json   (needs PyYAML)
import json, sys, yaml

spec = yaml.safe_load(open(sys.argv[1]))
KEEP_PATH = lambda p: p.startswith('/account') or p in ('/databases/engines', '/databases/engines/{engineId}', '/databases/instances', '/databases/mysql/instances') or p.startswith('/databases/mongodb/')
DROP = {'description', 'summary', 'example', 'examples', 'x-code-samples', 'externalDocs', 'links', 'servers', 'security'}
METHODS = ('get', 'put', 'post', 'delete')

def strip(node, names=False):
    # names: the keys of `node` are property names (a schema's `properties`), never prose.
    if isinstance(node, dict):
        if names:
            return {k: strip(v) for k, v in node.items()}
        # Kept where they say a value may be null though the schema is not marked nullable: an
        # example of null, and a description naming `null`.
        keep = lambda k, v: k not in DROP or (k == 'example' and v is None) or (k == 'description' and isinstance(v, str) and '`null`' in v)
        return {k: strip(v, k == 'properties') for k, v in node.items() if keep(k, v) and not k.startswith('x-linode-cli')}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node

paths = {}
for p, item in spec['paths'].items():
    if not KEEP_PATH(p):
        continue
    out = {}
    if 'parameters' in item:
        out['parameters'] = item['parameters']
    for m in METHODS:
        if m in item:
            op = item[m]
            out[m] = {k: op[k] for k in ('operationId', 'tags', 'parameters', 'requestBody', 'responses', 'x-linode-grant') if k in op}
    paths[p] = strip(out)

components = {}
def refs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == '$ref' and isinstance(v, str) and v.startswith('#/components/'):
                yield v
            else:
                yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)

todo = list(refs(paths))
while todo:
    ref = todo.pop()
    _, _, kind, name = ref.split('/', 3)
    name = name.split('/')[0]  # a pointer into a schema (Database/properties/updates) keeps the whole schema
    if name in components.get(kind, {}):
        continue
    value = strip(spec['components'][kind][name])
    components.setdefault(kind, {})[name] = value
    todo.extend(refs(value))

components = {k: dict(sorted(v.items())) for k, v in sorted(components.items())}
json.dump({'openapi': spec['openapi'], 'info': {'title': spec['info']['title'], 'version': spec['info']['version']}, 'paths': paths, 'components': components}, sys.stdout, indent=1, sort_keys=False)
sys.stdout.write('\n')
