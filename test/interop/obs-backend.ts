// A real Open Build Service backend (Debian package obs-server, 2.9.4): bs_srcserver and
// bs_repserver from /usr/lib/obs/server, started in a temporary folder on 127.0.0.1 only, with a
// fixture project made through the backend's own API, and a recording proxy in front of the
// source server that notes what each route answered.
//
// The backend binds every interface by itself (BSServer::serveropen binds INADDR_ANY) unless it is
// started as its own restart does it: `bs_srcserver --restart <fd>` takes the listening socket
// `fd` it inherits (BSStdServer::server: `$port = "&=$fd"`). A small perl launcher opens both
// sockets on 127.0.0.1:0, writes the BSConfig.pm naming them, and execs each server with its
// socket. BSConfig.pm is read from the server's own folder (`unshift @INC, $wd` of `$0`), so the
// servers run from a folder of symbolic links to /usr/lib/obs/server with our BSConfig.pm in it;
// the package's own /etc/obs/BSConfig.pm and its service units are never used.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const OBS_SERVER_DIR = '/usr/lib/obs/server';

/** Whether obs-server's backend is installed here (Debian package `obs-server`). */
export const haveObsBackend = (): boolean => existsSync(join(OBS_SERVER_DIR, 'bs_srcserver')) && existsSync(join(OBS_SERVER_DIR, 'bs_repserver'));

/** One answer the proxy passed on. */
export interface SeenAnswer {
  method: string;
  /** The path, without the query. */
  path: string;
  status: number;
  /** The backend's `400 unknown request` (BSDispatch.pm: no dispatch matched). */
  unknown: boolean;
}

export interface ObsBackend {
  /** The recording proxy in front of bs_srcserver (what the checks are given). */
  baseUrl: string;
  srcserver: string;
  reposerver: string;
  fixtures: { project: string; package: string; file: string; repository: string; arch: string };
  answers: SeenAnswer[];
  /** The servers' own output (BSServer::msg), for a failing test's message. */
  logs(): string;
  close(): Promise<void>;
}

// The launcher: it stays the servers' parent (and, on Linux, the subreaper of their children)
// so that it can end and reap them all: on SIGTERM or when its stdin closes (the test process
// went away), it sends SIGTERM to each server's process group (BSServer::deamonize makes each
// server a session leader; its request and AJAX children share its group), then SIGKILL, and
// removes the temporary folder.
const LAUNCHER = String.raw`
use strict; use warnings; use Socket; use Fcntl; use POSIX (); use Config; use File::Path ();
my ($farm, $bsdir, $dir) = @ARGV;
# prctl(PR_SET_CHILD_SUBREAPER): orphaned request children come back to us to be reaped.
my %prctl = ('x86_64-linux' => 157, 'aarch64-linux' => 167);
my ($arch) = grep { $Config{archname} =~ /^\Q$_\E/ } keys %prctl;
syscall($prctl{$arch}, 36, 1, 0, 0, 0) if $arch;
my (%sock, %port);
for my $n ('src', 'rep') {
  socket(my $s, PF_INET, SOCK_STREAM, getprotobyname('tcp')) || die "socket: $!\n";
  setsockopt($s, SOL_SOCKET, SO_REUSEADDR, pack('l', 1));
  bind($s, sockaddr_in(0, inet_aton('127.0.0.1'))) || die "bind: $!\n";
  listen($s, 512) || die "listen: $!\n";
  ($port{$n}) = sockaddr_in(getsockname($s));
  $sock{$n} = $s;
}
open(my $c, '>', "$farm/BSConfig.pm") || die "BSConfig.pm: $!\n";
print $c "package BSConfig;\n",
  "our \$srcserver = 'http://127.0.0.1:$port{src}';\n",
  "our \$reposerver = 'http://127.0.0.1:$port{rep}';\n",
  "our \$bsdir = '$bsdir';\n",
  "our \$ipaccess = { '^127\\\\.0\\\\.0\\\\.1\$' => 'rw' };\n",
  "1;\n";
close($c);
mkdir("$bsdir/log");
my %pid;
for my $n ('src', 'rep') {
  my $pid = fork(); die "fork: $!\n" unless defined $pid;
  if (!$pid) {
    close($sock{$_}) for grep { $_ ne $n } keys %sock;
    fcntl($sock{$n}, F_SETFD, 0);
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>>', "$bsdir/log/bs_" . $n . "server.log");
    open(STDERR, '>&', \*STDOUT);
    exec("$farm/bs_" . $n . "server", '--restart', fileno($sock{$n})) or POSIX::_exit(127);
  }
  $pid{$n} = $pid;
}
close($sock{$_}) for keys %sock;
$| = 1;
print "{\"src\":$port{src},\"rep\":$port{rep}}\n";
my $stop = 0;
$SIG{TERM} = $SIG{INT} = sub { $stop = 1 };
while (!$stop) {
  my $rin = ''; vec($rin, fileno(STDIN), 1) = 1;
  my $n = select(my $rout = $rin, undef, undef, 1);
  if ($n > 0) { my $buf; $stop = 1 unless sysread(STDIN, $buf, 512); }
  1 while waitpid(-1, POSIX::WNOHANG()) > 0;
}
kill('TERM', -$_) for values %pid;
for (1 .. 40) {
  1 while waitpid(-1, POSIX::WNOHANG()) > 0;
  last unless grep { kill(0, -$_) } values %pid;
  select(undef, undef, undef, 0.05);
}
kill('KILL', -$_) for grep { kill(0, -$_) } values %pid;
1 while waitpid(-1, 0) > 0;
File::Path::remove_tree($dir);
`;

async function call(base: string, method: string, path: string, body?: string): Promise<string> {
  const res = await fetch(`${base}${path}`, { method, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text;
}

function startProxy(target: URL, answers: SeenAnswer[]): Promise<Server> {
  const server = createServer((req, res) => {
    const up = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      answers.push({
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0],
        status: answer.statusCode ?? 0,
        unknown: answer.statusCode === 400 && /^unknown request\b/i.test(answer.statusMessage ?? ''),
      });
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Starts bs_srcserver and bs_repserver on 127.0.0.1 in a new temporary folder, with a fixture project. */
export async function startObsBackend(): Promise<ObsBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-obs-'));
  const farm = join(dir, 'server');
  const bsdir = join(dir, 'srv');
  mkdirSync(farm);
  mkdirSync(bsdir);
  for (const entry of readdirSync(OBS_SERVER_DIR)) if (entry !== 'BSConfig.pm') symlinkSync(join(OBS_SERVER_DIR, entry), join(farm, entry));
  writeFileSync(join(dir, 'launch.pl'), LAUNCHER);
  const launcher: ChildProcess = spawn('perl', [join(dir, 'launch.pl'), farm, bsdir, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  launcher.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => launcher.once('exit', () => resolve()));
  const readLogs = (): string =>
    ['src', 'rep'].map((n) => join(bsdir, 'log', `bs_${n}server.log`)).map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('') + stderr;
  const ports = await new Promise<{ src: number; rep: number }>((resolve, reject) => {
    const lines = createInterface({ input: launcher.stdout! });
    lines.once('line', (line) => resolve(JSON.parse(line)));
    launcher.once('exit', (code) => reject(new Error(`the obs backend launcher exited (${code}): ${stderr}`)));
  });
  const srcserver = `http://127.0.0.1:${ports.src}`;
  const answers: SeenAnswer[] = [];
  const proxy = await startProxy(new URL(srcserver), answers);
  const address = proxy.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    const proxyClosed = new Promise<void>((resolve) => proxy.close(() => resolve()));
    proxy.closeAllConnections();
    await proxyClosed;
    launcher.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    rmSync(dir, { recursive: true, force: true });
  };
  const fixtures = { project: 'conformance:fixture', package: 'hello', file: 'hello.spec', repository: 'standard', arch: 'x86_64' };
  try {
    // The fixture, through the backend's own API (no build: no scheduler runs). The api of a
    // whole instance writes the backend's /configuration with the architectures it schedules
    // (document line 66: "the schedulers element of /configuration"); here the test does.
    const { project, package: pkg, file, repository, arch } = fixtures;
    await call(srcserver, 'PUT', '/configuration', `<configuration><schedulers><arch>${arch}</arch></schedulers></configuration>`);
    await call(srcserver, 'PUT', `/source/${project}/_meta?user=conformance`, `<project name="${project}"><title>conformance fixture</title><description/><repository name="${repository}"><arch>${arch}</arch></repository></project>`);
    await call(srcserver, 'PUT', `/source/${project}/${pkg}/_meta?user=conformance`, `<package name="${pkg}" project="${project}"><title>${pkg}</title><description/></package>`);
    await call(srcserver, 'PUT', `/source/${project}/${pkg}/${file}?user=conformance&comment=fixture`, `Name: ${pkg}\nVersion: 1.0\nRelease: 0\nSummary: conformance fixture\nLicense: MIT\n%description\nA fixture.\n`);
  } catch (e) {
    const logs = readLogs();
    await close();
    throw new Error(`${(e as Error).message}\n${logs}`);
  }
  return { baseUrl, srcserver, reposerver: `http://127.0.0.1:${ports.rep}`, fixtures, answers, logs: readLogs, close };
}
