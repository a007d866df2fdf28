#include "platform/font_finder.h"

#if TILESCOPE_HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>

#include <filesystem>
#include <memory>
#include <string_view>
#endif

namespace tilescope::platform {

#if TILESCOPE_HAVE_FONTCONFIG
namespace {

struct PatternFree {
  void operator()(FcPattern* p) const { FcPatternDestroy(p); }
};
struct FontSetFree {
  void operator()(FcFontSet* s) const { FcFontSetDestroy(s); }
};

std::string stringOf(const FcPattern* font, const char* key) {
  FcChar8* value = nullptr;
  return FcPatternGetString(font, key, 0, &value) == FcResultMatch ? reinterpret_cast<const char*>(value) : "";
}

// What stb_truetype can rasterise: a scalable font in a TrueType-flavoured file. Bitmap
// fonts (PCF), Type 1 and CFF-only OpenType are left for the next candidate.
bool usable(const FcPattern* font, FontRole role) {
  FcBool outline = FcFalse;
  if (FcPatternGetBool(font, FC_OUTLINE, 0, &outline) != FcResultMatch || !outline) return false;
  if (stringOf(font, FC_FONTFORMAT) != "TrueType") return false;
  if (role == FontRole::Mono) {  // the Source panel lines code up in columns
    int spacing = FC_PROPORTIONAL;
    if (FcPatternGetInteger(font, FC_SPACING, 0, &spacing) != FcResultMatch || spacing < FC_MONO) return false;
  }
  std::error_code ec;
  return std::filesystem::is_regular_file(stringOf(font, FC_FILE), ec);
}

}  // namespace

Result<FontFile> findFont(FontRole role) {
  const bool mono = role == FontRole::Mono;
  if (!FcInit()) return unavailable("fontconfig could not load its configuration");
  std::unique_ptr<FcPattern, PatternFree> pattern(FcPatternCreate());
  // DejaVu first, then whatever this system maps the generic family to.
  for (const char* family : {mono ? "DejaVu Sans Mono" : "DejaVu Sans", mono ? "monospace" : "sans-serif"})
    FcPatternAddString(pattern.get(), FC_FAMILY, reinterpret_cast<const FcChar8*>(family));
  FcPatternAddInteger(pattern.get(), FC_WEIGHT, FC_WEIGHT_REGULAR);
  FcPatternAddInteger(pattern.get(), FC_SLANT, FC_SLANT_ROMAN);
  if (mono) FcPatternAddInteger(pattern.get(), FC_SPACING, FC_MONO);
  FcConfigSubstitute(nullptr, pattern.get(), FcMatchPattern);
  FcDefaultSubstitute(pattern.get());
  FcResult result = FcResultNoMatch;
  std::unique_ptr<FcFontSet, FontSetFree> sorted(FcFontSort(nullptr, pattern.get(), FcFalse, nullptr, &result));
  const char* what = mono ? "monospace" : "sans-serif";
  if (!sorted || sorted->nfont == 0) return unavailable(std::string("fontconfig knows no ") + what + " font");
  for (int i = 0; i < sorted->nfont; ++i) {
    const FcPattern* font = sorted->fonts[i];
    if (!usable(font, role)) continue;
    int index = 0;  // the face within a collection (.ttc)
    FcPatternGetInteger(font, FC_INDEX, 0, &index);
    return FontFile{stringOf(font, FC_FILE), stringOf(font, FC_FAMILY), index & 0xffff};
  }
  return unavailable(std::string("fontconfig lists no scalable TrueType ") + what + " font");
}

#else

Result<FontFile> findFont(FontRole) { return unavailable("built without fontconfig (libfontconfig-dev)"); }

#endif

}  // namespace tilescope::platform
