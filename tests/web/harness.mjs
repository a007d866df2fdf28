// The browser tests' harness: serves the built site (build-web/site) on a free loopback port,
// drives Debian's Chromium headless through playwright-core (WebGL2 on SwiftShader, the flags
// /work/shared/BROWSER.md checked), runs a script in the page through its `script=` URL
// parameter and reads back the files the script wrote in the page's in-memory file system.
// The page's side of this contract: tests/README.md, "The browser tests".
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SITE = process.env.TILESCOPE_SITE || path.join(REPO, 'build-web', 'site');
export const CHROMIUM = process.env.TILESCOPE_CHROMIUM || '/usr/bin/chromium';
// A script that has not finished by then has hung (every script here runs for seconds).
const SCRIPT_TIMEOUT_MS = Number(process.env.TILESCOPE_WEB_TIMEOUT_MS || 120000);

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.json': 'application/json',
  '.png': 'image/png', '.css': 'text/css', '.csv': 'text/csv', '.ico': 'image/x-icon', '.svg': 'image/svg+xml',
};

// Serves `root` on 127.0.0.1 at a port the system picks; resolves to {url, close()}. The files
// may be cached (a test file's pages share one browser context: the .wasm and .data load once).
// As a course host set up as the teacher's guide says: a file's .br (or .gz) copy when the
// browser accepts it and the build wrote one, with Content-Encoding and Vary.
export async function serveSite(root = SITE) {
  if (!existsSync(path.join(root, 'index.html')))
    throw new Error(`no site at ${root} (no index.html): build it first with 'make web'`);
  const server = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(root, rel.endsWith('/') ? rel + 'index.html' : rel);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      const accepts = String(req.headers['accept-encoding'] || '');
      const packed = [['br', '.br'], ['gzip', '.gz']].find(([name, ext]) => accepts.includes(name) && existsSync(file + ext));
      const body = await readFile(packed ? file + packed[1] : file);
      res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream',
                           'Content-Length': body.length, 'Cache-Control': 'max-age=3600', Vary: 'Accept-Encoding',
                           ...(packed ? { 'Content-Encoding': packed[0] } : {}) });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${rel}\n`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

// TILESCOPE_CHROMIUM_FLAGS adds switches (the web benchmark compares the browser's own
// settings with it, e.g. --disable-gpu-compositing: bench/README.md, "The web page").
export function chromiumArgs() {
  const args = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  args.push(...(process.env.TILESCOPE_CHROMIUM_FLAGS || '').split(/\s+/).filter(Boolean));
  return args;
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: scripts/install-web-test-deps installs it`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: chromiumArgs() });
}

// The strip of page tools under the canvas (app/platform/web/shell.html, --tools): a page of
// width x height CSS pixels is opened in a viewport this much taller, so its picture is
// width x height (the presenter test reads 1280x720 back from the layout file).
export const TOOLS_PX = Number(process.env.TILESCOPE_TOOLS_PX ?? 28);  // 0 for a site built before the strip

// One test file's browser: the site served once, Chromium launched once, one context whose pages
// share the cached site; the clipboard allowed (the "Copy link" tests read it). close() prints
// how long the file took.
export async function startSession(name) {
  const began = performance.now();
  const site = await serveSite();
  const browser = await launchBrowser();
  const context = await browser.newContext({ deviceScaleFactor: 1, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url.replace(/\/$/, '') });
  return {
    url: site.url, browser, context,
    open: (params, options) => openPage(context, site.url, params, options),
    run: (script, options) => runScript(context, site.url, script, options),
    close: async () => {
      await browser.close();
      await site.close();
      if (name) console.log(`# ${name}: ${((performance.now() - began) / 1000).toFixed(1)} s`);
    },
  };
}

// The page's address for `params` ({script: TEXT} or scene parameters such as {lesson, page}).
export function pageUrl(base, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) q.set(k, String(v));
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

// Puts files into the page's file system before its main() runs: `Module.preRun`, which
// emscripten calls with the file system ready. The page's own `var Module = {...}` goes through
// the setter below, which adds the hook to whatever object the page sets. `flags` are set on
// window first (tilescopeDownloads, tilescopeHoldWork: app/platform/web).
function preloadScript(files, flags) {
  return `(() => {
    Object.assign(window, ${JSON.stringify(flags)});
    const files = ${JSON.stringify(files)};
    if (!files.length) return;
    const hook = () => {
      const FS = window.Module.FS || window.FS;
      for (const f of files) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        FS.mkdirTree ? FS.mkdirTree(f.path.slice(0, f.path.lastIndexOf('/')) || '/') : 0;
        FS.writeFile(f.path, bytes);
      }
    };
    let module;
    Object.defineProperty(window, 'Module', { configurable: true, get: () => module, set: (m) => {
      if (m && m !== module) m.preRun = [].concat(m.preRun || [], [hook]);
      module = m;
    }});
  })();`;
}

// Opens the page at `params` in a new page of `context` (its picture `width` x `height` CSS
// pixels) and waits for what `waitFor` names: 'script' (window.tilescopeScriptDone), 'frame'
// (tilescopeFirstFrame), 'frames' (the first frame counted: the app takes input) or nothing.
// `files`: [{path, bytes}] put into the page's FS first; `downloads`: a script's exports are
// downloaded as a person's are; `holdWork`: background work (runs) waits until
// releaseWork(page). Resolves to {page, done, console, url, close()}.
export async function openPage(context, base, params = {},
                               { width = 1280, height = 720, files = [], waitFor = 'script', downloads = false, holdWork = false } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: height + TOOLS_PX });
  const log = [];
  page.on('console', (m) => log.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  const downloaded = [];
  page.on('download', (d) => downloaded.push(d));
  const flags = {};
  if (downloads) flags.tilescopeDownloads = true;
  if (holdWork) flags.tilescopeHoldWork = true;
  if (files.length || downloads || holdWork)
    await page.addInitScript(preloadScript(files.map((f) => ({ path: f.path, base64: Buffer.from(f.bytes).toString('base64') })), flags));
  const url = pageUrl(base, params);
  const close = () => page.close();
  await page.goto(url, { waitUntil: 'load' });
  let done = null;
  try {
    if (waitFor === 'script') done = await scriptDone(page);
    else if (waitFor === 'frame')
      await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: SCRIPT_TIMEOUT_MS, polling: 50 });
    else if (waitFor === 'frames') await framesPast(page, 0);
  } catch (e) {
    await close();
    throw new Error(`${url}: ${e.message}\npage console:\n${log.slice(-30).join('\n')}`);
  }
  return { page, done, console: log, url, close, downloads: downloaded };
}

// The page's next download (playwright's Download) not yet taken from `r` (openPage's).
export async function nextDownload(r) {
  return r.downloads.shift() || (await r.page.waitForEvent('download', { timeout: SCRIPT_TIMEOUT_MS }), r.downloads.shift());
}

// window.tilescopeScriptDone once the page's script has ended.
export async function scriptDone(page) {
  await page.waitForFunction(() => window.tilescopeScriptDone, null, { timeout: SCRIPT_TIMEOUT_MS, polling: 50 });
  return page.evaluate(() => window.tilescopeScriptDone);
}

// Waits until the page has drawn more than `n` frames (window.tilescopeFrames); resolves to the count.
export async function framesPast(page, n) {
  await page.waitForFunction((k) => (window.tilescopeFrames || 0) > k, n, { timeout: SCRIPT_TIMEOUT_MS, polling: 'raf' });
  return page.evaluate(() => window.tilescopeFrames);
}

// Frames after an input event: the app reads input at its next frame, draws it at the one after.
export async function settle(page, frames = 3) {
  const now = await page.evaluate(() => window.tilescopeFrames || 0);
  return framesPast(page, now + frames - 1);
}

// Lets a page opened with holdWork run its kernels.
export async function releaseWork(page) {
  await page.evaluate(() => { window.tilescopeHoldWork = false; });
}

// Runs `script` (script-mode lines, tilescope --script's) in a new page; fails unless it
// finished with ok. Resolves to what openPage gives.
export async function runScript(context, base, script, options = {}) {
  const params = { ...(options.params || {}), script };
  const r = await openPage(context, base, params, options);
  return checkDone(r, script);
}

// `r` (openPage's) after its script: itself, or an error with the script's message and the console.
export async function checkDone(r, script) {
  if (!r.done || !r.done.ok) {
    const why = r.done ? r.done.message : 'no result';
    await r.close();
    throw new Error(`the page's script failed: ${why}\nscript:\n${script}\npage console:\n${r.console.slice(-30).join('\n')}`);
  }
  return r;
}

export async function readText(page, file) {
  return page.evaluate((p) => window.Module.FS.readFile(p, { encoding: 'utf8' }), file);
}

export async function readJson(page, file) {
  return JSON.parse(await readText(page, file));
}

// A file of the page's FS as a Buffer (base64 across the bridge, in chunks: traces are MBs).
export async function readBytes(page, file) {
  const b64 = await page.evaluate((p) => {
    const bytes = window.Module.FS.readFile(p);
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }, file);
  return Buffer.from(b64, 'base64');
}

// The native command line (make test builds it in build/; TILESCOPE_CLI names another).
export const CLI = process.env.TILESCOPE_CLI || path.join(REPO, 'build', 'app', 'cli', 'tilescope-cli');

export function requireCli() {
  if (!existsSync(CLI))
    throw new Error(`no native tilescope-cli at ${CLI}: build it (make build, or cmake --build build --target tilescope-cli) or set TILESCOPE_CLI`);
  return CLI;
}
