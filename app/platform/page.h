// What a page has and a desktop window has not (and the reverse): its address, downloads, a
// file picker, the clipboard, and what cannot run in a browser, in plain words.
#pragma once
#include <functional>
#include <optional>
#include <string>

namespace tilescope::platform {

// Once, first thing in main: a page points TILESCOPE_ASSETS at its preloaded /assets and makes
// /out for the files a script writes; the desktop does nothing.
void startProcess();

// The page's query (location.search without its '?', not decoded), or nothing on the desktop.
std::optional<std::string> pageQuery();
// The page's address without its query (for links), or nothing on the desktop.
std::optional<std::string> pageAddressBase();

// A file the user asked to export (PNG, GIF, .tstrace) was written at `path`: a page hands it
// to the browser as a download when downloads are on (a person is at the page, not a script);
// the desktop leaves it where it is.
void setDownloadsEnabled(bool on);
void offerDownload(const std::string& path);

// A page's file picker (its "Open .tstrace" button) puts the chosen file into the page's
// file system and calls `handler` with its path in the next frame; the desktop never calls it.
void setOpenFileHandler(std::function<void(const std::string& path)> handler);

// A page's "Copy link" button calls `handler` (the app copies the address of its scene).
void setCopyLinkHandler(std::function<void()> handler);

// Copies `text` to the system clipboard (a page also shows it in the address bar); false
// when it could not.
bool copyLink(const std::string& text);

// How a saved .tstrace opens again, in this target's words (after "opens again with"): the
// desktop's command line; in a page, where the browser put it and the page's own button.
std::string traceReopening();

// Why the lab (a student's kernel compiled and sandboxed) or live GPU timing cannot run here,
// or nothing when it can (the desktop: it may still lack a GPU, which the lab says itself).
std::optional<std::string> labUnavailable();
std::optional<std::string> liveTimingUnavailable();
// Why no kernel runs on a GPU here whatever the machine has (a page: the browser cannot reach
// one), said in place of the build's own reason; nothing on the desktop, whose run worker says
// why CUDA is missing (no nvcc when it was built, no device).
std::optional<std::string> gpuUnreachable();

}  // namespace tilescope::platform
