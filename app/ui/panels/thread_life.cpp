// Thread life: the followed thread's whole life, one line per phase, the way the book's fig. 5.8
// tabulates it for the four threads of its example: the elements it loads into which slots,
// its barriers, the products of its k steps, and the P element it stores (core/thread_life.h).
// What is done is drawn plainly, the cursor's step highlighted, what is ahead dimmed. When the
// whole life does not fit (a 128x128 launch has 8 phases of 16 products), it is shortened: the
// products of a phase beyond its first and last are elided (the current one stays), then the
// phases other than the current one shrink to their loads, and at last are left out; then the
// text gets smaller (never on a projector), and a register tile's long phase shows a window
// around the current entry.
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/model/thread_life_view.h"

namespace tilescope::ui {
namespace {

using Token = LifeToken;

// Lays the tokens out in lines of `width` pixels, continued lines indented; returns the height.
struct Placed {
  float x, y, w;
  // A product too wide for a line: its values go on the next, and a piece still too wide for
  // the panel (a projector's large text) is wrapped at its spaces; the pieces, first to last.
  std::vector<std::pair<std::size_t, std::size_t>> pieces;
};
// Where a token may be broken in two: before its values, "k0: M(0,0) x N(0,0)" | "(a x b, Pvalue = s)".
std::size_t valuesStart(const std::string& text) {
  const std::size_t at = text.rfind(" (");
  return at == std::string::npos || at == 0 ? std::string::npos : at + 1;
}
// [begin, end) of `text` in lines no wider than `width`, broken at its spaces only (a number
// stays whole); a word wider than the line has a line of its own.
void wrapPiece(const std::string& text, std::size_t begin, std::size_t end, float width,
               std::vector<std::pair<std::size_t, std::size_t>>& pieces) {
  auto wide = [&](std::size_t b, std::size_t e) { return ImGui::CalcTextSize(text.c_str() + b, text.c_str() + e).x; };
  while (begin < end) {
    std::size_t last = text.find(' ', begin + 1);
    if (last == std::string::npos || last > end) last = end;
    for (std::size_t next = last; next < end && wide(begin, next) <= width;) {  // the longest run of words that fits
      last = next;
      next = text.find(' ', next + 1);
      if (next == std::string::npos || next > end) next = end;
      if (next == end && wide(begin, end) <= width) last = end;
    }
    pieces.emplace_back(begin, last);
    begin = last;
    while (begin < end && text[begin] == ' ') ++begin;
  }
}
float flow(const std::vector<Token>& tokens, float width, std::vector<Placed>& at, float* widest = nullptr) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeightWithSpacing() + style.FramePadding.y;
  const float gap = style.ItemSpacing.x, pad = style.FramePadding.x * 0.5f;
  const float indent = ImGui::GetFontSize() * 1.2f;
  float x = 0, y = -line;
  at.clear();
  for (const Token& tok : tokens) {
    float w = ImGui::CalcTextSize(tok.text.c_str()).x + 2 * pad;
    // The first token begins the first line whatever it is (an elision's count among them):
    // y starts one line above the panel's top for it.
    if (tok.newLine || at.empty() || (x > indent && x + w > width)) {
      y += line;
      x = tok.newLine || at.empty() || indent + w > width ? 0 : indent;  // a wide entry starts its line (never shrunk on a projector)
    }
    Placed p{x, y, w, {{0, tok.text.size()}}};
    if (x + w > width) {
      // Too wide even on a line of its own: the entry, then its values on the next line, each
      // wrapped at its spaces where it is wider than the panel still.
      p.pieces.clear();
      const std::size_t cut = valuesStart(tok.text);
      if (cut != std::string::npos) {
        wrapPiece(tok.text, 0, cut - 1, width - x - 2 * pad, p.pieces);
        wrapPiece(tok.text, cut, tok.text.size(), width - x - 2 * pad, p.pieces);
      } else {
        wrapPiece(tok.text, 0, tok.text.size(), width - x - 2 * pad, p.pieces);
      }
      p.w = 0;
      for (const auto& [b, e] : p.pieces)
        p.w = std::max(p.w, ImGui::CalcTextSize(tok.text.c_str() + b, tok.text.c_str() + e).x + 2 * pad);
      y += line * float(p.pieces.size() - 1);
      w = ImGui::CalcTextSize(tok.text.c_str() + p.pieces.back().first, tok.text.c_str() + p.pieces.back().second).x + 2 * pad;
    }
    at.push_back(p);
    x += (p.pieces.size() == 1 ? p.w : w) + gap;
    if (widest) *widest = std::max(*widest, p.x + p.w);
  }
  return tokens.empty() ? 0 : y + line;
}

// The last resort for a phase longer than the panel at any size (a register tile's k loop):
// the tokens within `radius` of the current one, "... 12 entries" for what is left out on either side,
// the current entry's line label kept (the others too while `radius` > 0); the current step's
// entries are kept, at radius 0 its first two and its last.
std::vector<Token> around(const std::vector<Token>& tokens, int radius) {
  int current = -1;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!tokens[i].label && tokens[i].time == LifeTime::Current) current = int(i);
  if (current < 0) current = int(tokens.size()) - 1;
  int firstCurrent = current;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!tokens[i].label && tokens[i].time == LifeTime::Current) {
      firstCurrent = int(i);
      break;
    }
  int ownLabel = current;
  while (ownLabel > 0 && !tokens[std::size_t(ownLabel)].label) --ownLabel;
  std::vector<Token> out;
  int elided = 0;
  LifeTime elidedTime = LifeTime::Done;
  bool elidedNewLine = false;  // the run left out began a line: its count begins it instead
  auto flush = [&] {
    if (elided > 0)
      out.push_back({"... " + std::to_string(elided) + (elided == 1 ? " entry" : " entries"), elidedTime, false, elidedNewLine});
    elided = 0;
  };
  for (int i = 0; i < int(tokens.size()); ++i) {
    const bool label = tokens[std::size_t(i)].label && (radius > 0 || i == ownLabel);
    // The cursor's step stays: all of it while the window has a radius, else its first two
    // entries (a flag's wait and the first read it guards) and its last, the rest counted.
    const bool now = tokens[std::size_t(i)].time == LifeTime::Current && !tokens[std::size_t(i)].label &&
                     (radius > 0 || i <= firstCurrent + 1 || i == current);
    if (label || std::abs(i - current) <= radius || now) {
      flush();
      out.push_back(tokens[std::size_t(i)]);
    } else {
      if (elided++ == 0) elidedTime = tokens[std::size_t(i)].time, elidedNewLine = tokens[std::size_t(i)].newLine;
    }
  }
  flush();
  return out;
}

// What the panel shows: the most detail that fits the room, at the panel's text size or, for a
// life longer than that (a register tile's products), smaller, down to 70 %; then a window of
// the current phase around the current entry. Sets the window's font scale it chose.
struct LifeFit {
  std::vector<Token> tokens;
  std::vector<Placed> at;
  float height = 0, titleH = 0;
  bool fits = false;  // at the panel's own text size (else smaller, or the last try cut off)
};
// On a projector the book's name of the thread gives way first (drawThreadLifePanel) and a
// register tile's stores are one line, so the text shrinks less often.
LifeFit fitLife(const ThreadLifeView& life, const std::string& title, bool presenter, bool shrink) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  LifeFit fit;
  auto tryTokens = [&](std::vector<Token> tokens, bool widthToo) {
    fit.titleH = wrappedTextSize(title, avail.x).y + ImGui::GetStyle().ItemSpacing.y;
    float widest = 0;
    fit.height = flow(tokens, avail.x, fit.at, &widest);
    fit.tokens = std::move(tokens);
    fit.fits = fit.titleH + fit.height <= avail.y && (!widthToo || widest <= avail.x);
    return fit.fits;
  };
  // A product with its values may be wider than the column at any size: then the height alone
  // decides, at the largest size it fits.
  // On a projector the text keeps the presenter's size (readable from the back row): the
  // shortening and then the window around the current entry make the room instead; only when the
  // current entry alone is too tall does it shrink (below), which the projector test would flag.
  const std::vector<float> scales = presenter ? std::vector<float>{1.0f} : std::vector<float>{1.0f, 0.85f, 0.7f};
  for (bool widthToo : {true, false})
    for (float scale : scales) {
      ImGui::SetWindowFontScale(scale);
      for (int detail = 0; detail <= 3; ++detail)
        if (tryTokens(life.tokens[std::size_t(detail)], widthToo)) return fit;
    }
  const std::vector<Token>& phase = life.tokens[kLifeDetails - 1];
  for (int radius = int(phase.size()); radius > 0; --radius)
    if (tryTokens(around(phase, radius), false)) return fit;
  if (tryTokens(around(phase, 0), false) || !shrink) return fit;
  // The current entry alone still too tall (a tensor-core MMA's fragments in words on a short
  // projector panel): smaller text rather than a cut-off entry.
  for (float scale : {0.85f, 0.7f}) {
    ImGui::SetWindowFontScale(scale);
    if (tryTokens(around(phase, 0), false)) break;
  }
  fit.fits = false;
  return fit;
}

}  // namespace

void drawThreadLifePanel(PanelContext& ctx) {
  const ThreadLifeView* view = shownThreadLifeView(ctx.state);
  if (!view || view->thread < 0) {
    textWrappedF(
        "Click a thread in the Thread block panel, or a P cell, to follow its whole life here: what it "
        "loads into which slots, the products of its k loop, and the element it stores.");
    return;
  }
  const Theme& theme = ctx.theme();
  std::string title = view->title;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // A projector's short panel: the book's name of the thread gives way before the entries do,
  // and before the text gets smaller.
  const bool presenter = ctx.state.lesson.presenter;
  LifeFit fit = fitLife(*view, title, presenter, !presenter);
  if (presenter && !fit.fits) {
    title = view->shortTitle;
    fit = fitLife(*view, title, true, true);
  }
  const std::vector<Token>& tokens = fit.tokens;
  const std::vector<Placed>& at = fit.at;
  ImGui::PushStyleColor(ImGuiCol_Text, theme.follow);
  const std::string titleLines = wrappedLines(title, ImGui::GetContentRegionAvail().x);
  ImGui::TextUnformatted(titleLines.c_str());
  ImGui::PopStyleColor();
  // Each line of the title as drawn, so the layout file shows where the entries may begin.
  const ImVec2 titleAt = ImGui::GetItemRectMin();
  const float titlePitch = ImGui::GetTextLineHeight();  // a multi-line text's pitch
  std::size_t from = 0;
  for (int line = 0; from <= titleLines.size(); ++line) {
    const std::size_t to = std::min(titleLines.find('\n', from), titleLines.size());
    recordTextAt(ctx, "Thread life", titleLines.substr(from, to - from), ImVec2(titleAt.x, titleAt.y + titlePitch * float(line)),
                 theme.follow, theme.windowBg);
    from = to + 1;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const float pad = ImGui::GetStyle().FramePadding.x * 0.5f, h = ImGui::GetTextLineHeight() + ImGui::GetStyle().FramePadding.y;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& tok = tokens[i];
    const ImVec2 p(origin.x + at[i].x, origin.y + at[i].y);
    ImU32 colour = tok.label ? dim : tok.time == LifeTime::Ahead ? dim : text;
    const float lineStep = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().FramePadding.y;
    const float tokenH = lineStep * float(at[i].pieces.size() - 1) + h;
    Rgba behind = theme.windowBg;
    if (!tok.label && tok.time == LifeTime::Current) {
      draw->AddRectFilled(p, ImVec2(p.x + at[i].w, p.y + tokenH), theme.follow, h * 0.2f);
      colour = readableOn(theme.follow);
      behind = theme.follow;
    }
    const float textY = p.y + ImGui::GetStyle().FramePadding.y * 0.5f;
    for (std::size_t k = 0; k < at[i].pieces.size(); ++k)
      draw->AddText(ImVec2(p.x + pad, textY + lineStep * float(k)), colour, tok.text.c_str() + at[i].pieces[k].first,
                    tok.text.c_str() + at[i].pieces[k].second);
    ctx.layout.texts.push_back({"Thread life", tok.text, p.x, p.y, lineStep, Rgba(colour), behind});
    if (!tok.label)
      ctx.layout.life.push_back({tok.text, tok.time == LifeTime::Done ? "done" : tok.time == LifeTime::Current ? "current" : "ahead",
                                 p.x, p.y, at[i].w, tokenH});
  }
  ImGui::Dummy(ImVec2(std::max(0.0f, avail.x - 1), fit.height));
  ImGui::SetWindowFontScale(1.0f);
}

}  // namespace tilescope::ui
