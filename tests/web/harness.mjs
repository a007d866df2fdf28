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

// Serves `root` on 127.0.0.1 at a port the system picks; resolves to {url, close()}.
export async function serveSite(root = SITE) {
  if (!existsSync(path.join(root, 'index.html')))
    throw new Error(`no site at ${root} (no index.html): build it first with 'make web'`);
  const server = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(root, rel.endsWith('/') ? rel + 'index.html' : rel);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream',
                           'Content-Length': body.length, 'Cache-Control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${rel}\n`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}

export function chromiumArgs() {
  const args = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
  if (process.getuid && process.getuid() === 0) args.push('--no-sandbox');
  return args;
}

export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: scripts/install-web-test-deps installs it`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: chromiumArgs() });
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
// the setter below, which adds the hook to whatever object the page sets.
function preloadScript(files) {
  return `(() => {
    const files = ${JSON.stringify(files)};
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

// Opens the page at `params` in a fresh context of `width` x `height` CSS pixels and waits for
// the script (if any) to finish. `files`: [{path, bytes}] put into the page's FS first.
// Resolves to {page, context, done, console, url}; done is window.tilescopeScriptDone.
export async function openPage(browser, base, params = {}, { width = 1280, height = 720, files = [], waitFor = 'script' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const log = [];
  page.on('console', (m) => log.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  if (files.length)
    await page.addInitScript(preloadScript(files.map((f) => ({ path: f.path, base64: Buffer.from(f.bytes).toString('base64') }))));
  const url = pageUrl(base, params);
  await page.goto(url, { waitUntil: 'load' });
  let done = null;
  try {
    if (waitFor === 'script') {
      await page.waitForFunction(() => window.tilescopeScriptDone, null, { timeout: SCRIPT_TIMEOUT_MS, polling: 100 });
      done = await page.evaluate(() => window.tilescopeScriptDone);
    } else if (waitFor === 'frame') {
      await page.waitForFunction(() => window.tilescopeFirstFrame !== undefined, null, { timeout: SCRIPT_TIMEOUT_MS, polling: 50 });
    }
  } catch (e) {
    await context.close();
    throw new Error(`${url}: ${e.message}\npage console:\n${log.slice(-30).join('\n')}`);
  }
  return { page, context, done, console: log, url };
}

// Runs `script` (script-mode lines, tilescope --script's) in a fresh page; fails unless it
// finished with ok. Resolves to what openPage gives.
export async function runScript(browser, base, script, options = {}) {
  const params = { ...(options.params || {}), script };
  const r = await openPage(browser, base, params, options);
  if (!r.done || !r.done.ok) {
    const why = r.done ? r.done.message : 'no result';
    await r.context.close();
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
