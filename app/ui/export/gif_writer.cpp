#include "ui/export/gif_writer.h"

#if TILESCOPE_HAVE_GIFLIB
#include <gif_lib.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace tilescope::ui {

struct GifWriter::State {
  GifFileType* file = nullptr;
  std::string path;
  int width = 0, height = 0;
  gfx::RgbImage previous;
};

namespace {

std::string gifError(const std::string& path, int code) {
  const char* text = GifErrorString(code);
  return "cannot write the GIF " + path + ": " + (text ? text : "giflib error " + std::to_string(code));
}

struct Indexed {
  std::vector<GifColorType> palette;
  std::vector<GifByteType> pixels;
};

// Frames of the app are mostly flat colours: up to 256 of them are kept exactly; past that
// giflib's median-cut quantiser picks the palette (anti-aliased text, many thread colours).
Indexed indexFrame(const unsigned char* rgb, int width, int height, int stride) {
  Indexed out;
  const std::size_t n = std::size_t(width) * std::size_t(height);
  out.pixels.resize(n);
  std::unordered_map<uint32_t, GifByteType> exact;
  bool fits = true;
  for (int y = 0; y < height && fits; ++y)
    for (int x = 0; x < width; ++x) {
      const unsigned char* p = rgb + std::size_t(y) * std::size_t(stride) + std::size_t(x) * 3;
      const uint32_t key = uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2];
      auto it = exact.find(key);
      if (it == exact.end()) {
        if (exact.size() == 256) {
          fits = false;
          break;
        }
        it = exact.emplace(key, GifByteType(exact.size())).first;
        out.palette.push_back({p[0], p[1], p[2]});
      }
      out.pixels[std::size_t(y) * std::size_t(width) + std::size_t(x)] = it->second;
    }
  if (fits) return out;
  std::vector<GifByteType> r(n), g(n), b(n);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const unsigned char* p = rgb + std::size_t(y) * std::size_t(stride) + std::size_t(x) * 3;
      const std::size_t i = std::size_t(y) * std::size_t(width) + std::size_t(x);
      r[i] = p[0], g[i] = p[1], b[i] = p[2];
    }
  int size = 256;
  out.palette.assign(256, GifColorType{0, 0, 0});
  GifQuantizeBuffer(unsigned(width), unsigned(height), &size, r.data(), g.data(), b.data(), out.pixels.data(),
                    out.palette.data());
  out.palette.resize(std::size_t(std::max(size, 2)));
  return out;
}

}  // namespace

Result<std::unique_ptr<GifWriter>> GifWriter::open(const std::string& path, int width, int height) {
  int error = 0;
  // Opened here rather than by EGifOpenFileName, which creates the file readable by its owner
  // only (0600): a GIF for the slides is a file like any other (0666 less the umask).
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return failure("cannot write " + path + ": " + std::strerror(errno));
  GifFileType* file = EGifOpenFileHandle(fd, &error);  // it closes fd from now on
  if (!file) {
    ::close(fd);  // giflib gives it back when it could not start
    return failure(gifError(path, error));
  }
  std::unique_ptr<GifWriter> w(new GifWriter);
  w->state_ = std::make_unique<State>();
  w->state_->file = file;
  w->state_->path = path;
  w->state_->width = width;
  w->state_->height = height;
  EGifSetGifVersion(file, true);  // GIF89a: delays and looping
  if (EGifPutScreenDesc(file, width, height, 8, 0, nullptr) == GIF_ERROR) return failure(gifError(path, file->Error));
  // Loop forever (the NETSCAPE2.0 application extension every viewer understands).
  const GifByteType loop[] = {1, 0, 0};
  if (EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(file, 11, "NETSCAPE2.0") == GIF_ERROR || EGifPutExtensionBlock(file, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer(file) == GIF_ERROR)
    return failure(gifError(path, file->Error));
  return w;
}

GifWriter::~GifWriter() {
  if (state_ && state_->file) EGifCloseFile(state_->file, nullptr);
}

Status GifWriter::addFrame(const gfx::RgbImage& frame, int delayCs) {
  State& s = *state_;
  if (!s.file) return failure("the GIF " + s.path + " is already finished");
  if (frame.width != s.width || frame.height != s.height)
    return failure("a " + std::to_string(frame.width) + "x" + std::to_string(frame.height) + " frame for the " +
                   std::to_string(s.width) + "x" + std::to_string(s.height) + " GIF " + s.path);
  // The rectangle that changed since the previous frame (all of the first frame).
  int x0 = 0, y0 = 0, x1 = s.width, y1 = s.height;
  const std::size_t stride = std::size_t(s.width) * 3;
  if (!s.previous.pixels.empty()) {
    x0 = s.width, y0 = s.height, x1 = 0, y1 = 0;
    for (int y = 0; y < s.height; ++y) {
      const unsigned char* a = frame.pixels.data() + std::size_t(y) * stride;
      const unsigned char* b = s.previous.pixels.data() + std::size_t(y) * stride;
      if (std::memcmp(a, b, stride) == 0) continue;
      y0 = std::min(y0, y), y1 = y + 1;
      for (int x = 0; x < s.width; ++x)
        if (std::memcmp(a + x * 3, b + x * 3, 3) != 0) x0 = std::min(x0, x), x1 = std::max(x1, x + 1);
    }
    if (x1 <= x0 || y1 <= y0) x0 = y0 = 0, x1 = y1 = 1;  // nothing changed: one pixel keeps the frame's delay
  }
  const int w = x1 - x0, h = y1 - y0;
  const Indexed indexed = indexFrame(frame.pixels.data() + std::size_t(y0) * stride + std::size_t(x0) * 3, w, h, int(stride));
  int bits = 1;
  while ((1 << bits) < int(indexed.palette.size())) ++bits;
  std::vector<GifColorType> colours(std::size_t(1) << bits, GifColorType{0, 0, 0});
  std::copy(indexed.palette.begin(), indexed.palette.end(), colours.begin());
  ColorMapObject* map = GifMakeMapObject(1 << bits, colours.data());
  if (!map) return failure("cannot write the GIF " + s.path + ": out of memory");
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;  // the next frame draws over this one
  gcb.DelayTime = std::max(delayCs, 2);
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const std::size_t length = EGifGCBToExtension(&gcb, extension);
  bool ok = EGifPutExtension(s.file, GRAPHICS_EXT_FUNC_CODE, int(length), extension) != GIF_ERROR &&
            EGifPutImageDesc(s.file, x0, y0, w, h, false, map) != GIF_ERROR;
  for (int y = 0; y < h && ok; ++y)
    ok = EGifPutLine(s.file, const_cast<GifByteType*>(indexed.pixels.data() + std::size_t(y) * std::size_t(w)), w) != GIF_ERROR;
  GifFreeMapObject(map);
  if (!ok) return failure(gifError(s.path, s.file->Error));
  s.previous = frame;
  ++frames_;
  return Ok{};
}

Status GifWriter::close() {
  State& s = *state_;
  if (!s.file) return Ok{};
  int error = 0;
  const int rc = EGifCloseFile(s.file, &error);
  s.file = nullptr;
  return rc == GIF_ERROR ? Status(failure(gifError(s.path, error))) : Status(Ok{});
}

}  // namespace tilescope::ui

#else  // built without giflib: every GIF export says so

namespace tilescope::ui {
struct GifWriter::State {};
Result<std::unique_ptr<GifWriter>> GifWriter::open(const std::string& path, int, int) {
  return unavailable("cannot write " + path + ": this build has no GIF support (install libgif-dev and rebuild)");
}
GifWriter::~GifWriter() = default;
Status GifWriter::addFrame(const gfx::RgbImage&, int) { return failure("no GIF support"); }
Status GifWriter::close() { return Ok{}; }
}  // namespace tilescope::ui

#endif
