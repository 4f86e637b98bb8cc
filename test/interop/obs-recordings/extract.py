#!/usr/bin/env python3
"""Extracts test data for test/interop/obs-recordings.test.ts from the source of Open Build
Service 2.9.4 (Debian source package open-build-service 2.9.4-9, open-build-service_2.9.4.orig.tar.gz):

  backend-recordings.json  the api's recorded backend exchanges (VCR cassettes,
                           src/api/spec/cassettes/**/*.yml), in a compact form;
  api-tests.json           the requests and the assertions on their answers of the api's
                           functional tests (src/api/test/functional/*.rb).

Usage: python3 extract.py <unpacked open-build-service-2.9.4> <out dir>   (needs PyYAML)
"""
import base64, glob, hashlib, json, os, re, sys
from urllib.parse import urlsplit, parse_qsl
import yaml

yaml.SafeLoader.add_constructor('!binary', lambda loader, node: base64.b64decode(loader.construct_scalar(node)).decode('utf-8', 'replace'))

BODY_LIMIT = 1000  # characters kept of each body; a longer one is cut and marked
# The routes of the document's groups that the recordings exercise (the backend shares them with the api).
KEEP = re.compile(r'^/(source|build|search|published)(/|$)')


def body(b):
    s = (b or {}).get('string') or ''
    if len(s) > BODY_LIMIT:
        return {'text': s[:BODY_LIMIT], 'cut': len(s)}
    return s


def cassettes(src):
    root = os.path.join(src, 'src/api/spec/cassettes')
    out, seen, totals = [], set(), {'cassettes': 0, 'exchanges': 0}
    for f in sorted(glob.glob(os.path.join(root, '**/*.yml'), recursive=True)):
        totals['cassettes'] += 1
        d = yaml.safe_load(open(f, encoding='utf-8')) or {}
        ex = []
        for it in d.get('http_interactions') or []:
            totals['exchanges'] += 1
            r, s = it['request'], it['response']
            u = urlsplit(r['uri'])
            if not KEEP.match(u.path):
                continue  # routes outside the document's groups (backend-internal: /getprojpack, /notificationpayload, ...)
            # One exchange: [method, path, query pairs, request body, status, reason phrase (errors
            # only), content type, response body]; a body is a string, or {text, cut} when cut.
            status = s['status']['code']
            ex.append([r['method'].upper(), u.path, parse_qsl(u.query, keep_blank_values=True), body(r.get('body')),
                       status, (s['status'].get('message') or '') if status >= 300 else '',
                       ((s.get('headers') or {}).get('Content-Type') or [''])[0], body(s.get('body'))])
        if not ex:
            continue
        # Many cassettes repeat the same exchanges (one per example of a spec): keep one of each.
        key = hashlib.sha1(json.dumps([e[:5] for e in ex]).encode()).hexdigest()
        if key in seen:
            continue
        seen.add(key)
        out.append({'cassette': os.path.relpath(f, src), 'exchanges': ex})
    return out, totals


REQUEST = re.compile(r'^\s*(get|post|put|delete|raw_put|raw_post|raw_delete)\s*\(?\s*(["\'])(.*?)\2(.*)$')
STATUS = re.compile(r'^\s*assert_response\s*\(?\s*(:\w+|\d+)')
LOGIN = re.compile(r'^\s*(login_(\w+)|prepare_request_with_user\s*\(?\s*["\']([^"\']+)["\']|prepare_request_valid_user|reset_auth)')
TEST = re.compile(r'^\s*def\s+(test_\w+)|^\s*test\s+["\'](.*?)["\']')


def balanced(lines, i):
    """The assertion starting at lines[i], joined with its continuation lines (brackets balanced)."""
    text, depth, j = '', 0, i
    while j < len(lines):
        line = lines[j].split(' # ')[0].rstrip()
        text += (' ' if text else '') + line.strip()
        depth += line.count('(') + line.count('{') + line.count('[') - line.count(')') - line.count('}') - line.count(']')
        if depth <= 0 and not line.endswith(','):
            break
        j += 1
    return text, j


def functional(src):
    out, totals = {}, {'files': 0, 'requests': 0, 'assert_response': 0, 'assert_xml_tag': 0}
    for f in sorted(glob.glob(os.path.join(src, 'src/api/test/functional/*.rb'))):
        totals['files'] += 1
        lines = open(f, encoding='utf-8').read().split('\n')
        test, login, cur, i = None, None, None, 0
        while i < len(lines):
            line = lines[i]
            m = TEST.match(line)
            if m:
                test, login, cur = m.group(1) or m.group(2), None, None
            m = LOGIN.match(line)
            if m:
                login = m.group(2) or m.group(3) or ('valid_user' if 'valid' in m.group(1) else None)
            m = REQUEST.match(line)
            if m and test:
                totals['requests'] += 1
                rest, _ = balanced(lines, i)
                cur = {'line': i + 1, 'test': test, 'login': login,
                       'method': m.group(1).replace('raw_', '').upper(), 'path': m.group(3),
                       'args': rest[rest.find(m.group(3)) + len(m.group(3)) + 1:].strip(' ,)')[:200], 'status': None, 'xml': []}
                out.setdefault(os.path.relpath(f, src), []).append(cur)
            m = STATUS.match(line)
            if m:
                totals['assert_response'] += 1
                if cur is not None and cur['status'] is None:
                    cur['status'] = m.group(1)
            if re.match(r'^\s*assert_xml_tag\b', line):
                totals['assert_xml_tag'] += 1
                text, i = balanced(lines, i)
                if cur is not None:
                    cur['xml'].append(text[len('assert_xml_tag'):].strip())
            i += 1
    return out, totals


def main():
    src, dst = sys.argv[1], sys.argv[2]
    rec, rtot = cassettes(src)
    api, atot = functional(src)
    meta = {'package': 'open-build-service 2.9.4-9 (Debian), open-build-service_2.9.4.orig.tar.gz',
            'sha256': 'e901da089b1d2844e632065e28d674ef0ca63db28eac2b3f6a12f6bcc3e3bca2', 'licence': 'GPL-2.0 (COPYING of the package)'}
    json.dump({**meta, 'from': 'src/api/spec/cassettes/**/*.yml', 'totals': rtot,
               'kept': {'cassettes': len(rec), 'exchanges': sum(len(c['exchanges']) for c in rec)},
               'format': 'exchange: [method, path, query pairs, request body, status, reason (errors only), content type, response body]', 'cassettes': rec},
              open(os.path.join(dst, 'backend-recordings.json'), 'w'), separators=(',', ':'), ensure_ascii=False)
    json.dump({**meta, 'from': 'src/api/test/functional/*.rb', 'totals': atot, 'files': api},
              open(os.path.join(dst, 'api-tests.json'), 'w'), separators=(',', ':'), ensure_ascii=False)
    print(json.dumps({'recordings': rtot, 'kept': len(rec), 'api': atot}))


main()
