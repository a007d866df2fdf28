// What a page has: its address, downloads, the file picker and the clipboard, through the
// browser's JavaScript; and the plain words for what cannot run in a browser.
#include <emscripten.h>

#include <cstdlib>
#include <filesystem>

#include "platform/page.h"

// The browser's side of this file.
EM_JS(char*, tilescopeLocationPart, (int query), {
  const s = query ? window.location.search.substring(1) : window.location.origin + window.location.pathname;
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});
EM_JS(void, tilescopeDownload, (const char* file), {
  const path = UTF8ToString(file);
  const blob = new Blob([FS.readFile(path)], {type: 'application/octet-stream'});
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = path.split('/').pop();
  document.body.appendChild(a);
  a.click();
  setTimeout(function() { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
});
// An address ending #gl-checks (or window.tilescopeGlChecks set before the page loads) turns
// on the GL error checks after each draw (app/gfx/gl_context.h): off by default, each is a
// round trip to the GPU process.
EM_JS(int, tilescopeGlChecksAsked, (), {
  return (window.tilescopeGlChecks || window.location.hash.indexOf('gl-checks') >= 0) ? 1 : 0;
});
// A page driven by a script makes no downloads, unless its host (a test of the downloads) set
// window.tilescopeDownloads before it loaded.
EM_JS(int, tilescopeDownloadsAsked, (), { return window.tilescopeDownloads ? 1 : 0; });
EM_JS(int, tilescopeCopyToClipboard, (const char* text), {
  const link = UTF8ToString(text);
  try { window.history.replaceState(null, "", link); } catch (e) {}
  if (!navigator.clipboard) return 0;
  navigator.clipboard.writeText(link).catch(function(e) { console.warn('tilescope: could not copy the link: ' + e); });
  return 1;
});

namespace tilescope::platform {
namespace {

bool g_downloads = false;
std::function<void(const std::string&)> g_openFile;
std::function<void()> g_copyLink;

// The page's query (without '?', not decoded) or its address without the query.
std::string locationPart(bool query) {
  char* text = tilescopeLocationPart(query ? 1 : 0);
  std::string result(text ? text : "");
  std::free(text);
  return result;
}

}  // namespace

void startProcess() {
  setenv("TILESCOPE_ASSETS", "/assets", 0);  // preloaded there (app/platform/CMakeLists.txt)
  // The lab's autosave and progress (app/ui/model/lab_state.h): /state is the browser's storage
  // for this site (IndexedDB), loaded before main and written back by the shell (web/shell.html).
  setenv("XDG_STATE_HOME", "/state", 1);
  if (tilescopeGlChecksAsked()) setenv("TILESCOPE_GL_CHECKS", "1", 1);
  std::error_code ec;
  std::filesystem::create_directories("/out", ec);  // where a script's files go (read back with Module.FS)
}

std::optional<std::string> pageQuery() { return locationPart(true); }
std::optional<std::string> pageAddressBase() { return locationPart(false); }

void setDownloadsEnabled(bool on) { g_downloads = on; }

void offerDownload(const std::string& path) {
  if (g_downloads || tilescopeDownloadsAsked()) tilescopeDownload(path.c_str());
}

void setOpenFileHandler(std::function<void(const std::string&)> handler) { g_openFile = std::move(handler); }

void setCopyLinkHandler(std::function<void()> handler) { g_copyLink = std::move(handler); }

bool copyLink(const std::string& text) { return tilescopeCopyToClipboard(text.c_str()) != 0; }

std::string traceReopening() {
  return "this page's Open .tstrace button (the browser saved it in your downloads; or drop it on the page), or "
         "tilescope --open on a laptop";
}

// The lab runs here: its own interpreter needs no compiler and no sandbox (web/lab_web.cpp).
std::optional<std::string> labUnavailable() { return std::nullopt; }

// The Timing panel shows it after "No live timing on this machine: ".
std::optional<std::string> liveTimingUnavailable() {
  return std::string(
      "a web page cannot reach a GPU. Live timing runs kernels on an NVIDIA GPU through the desktop app's CUDA "
      "backend: run tilescope on a GPU machine to time kernels. The H100 timings shown here are recorded ones, "
      "from the files this page was built with.");
}

// Said instead of the build's "nvcc was not found when it was configured", which sent a
// student in a browser looking for a compiler to install.
std::optional<std::string> gpuUnreachable() {
  return std::string(
      "a web page cannot reach a GPU: the CPU emulator runs the kernels; timings shown are the recorded H100 ones");
}

}  // namespace tilescope::platform

// The shell page (web/shell.html) calls these: its file picker and drop, after writing the file
// into the page's file system, and its "Copy link" button.
extern "C" EMSCRIPTEN_KEEPALIVE void tilescopeOpenFile(const char* path) {
  if (tilescope::platform::g_openFile && path) tilescope::platform::g_openFile(path);
}

extern "C" EMSCRIPTEN_KEEPALIVE void tilescopeCopyLink() {
  if (tilescope::platform::g_copyLink) tilescope::platform::g_copyLink();
}
