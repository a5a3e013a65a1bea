// Layout arithmetic and the comma-separated layout spec ("t5,i3x3,t2,v8x16x16").
// The parser reports the first bad item with its position and the accepted form.
#include "ropescope/layout.h"

#include <charconv>
#include <filesystem>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/layout_files.h"
#include "ropescope/sample_pictures.h"

namespace ropescope {

std::size_t Segment::tokenCount() const {
  if (kind == SegmentKind::Text) return static_cast<std::size_t>(length);
  return static_cast<std::size_t>(frames) * static_cast<std::size_t>(rows) *
         static_cast<std::size_t>(cols);
}

std::size_t Layout::tokenCount() const {
  std::size_t n = 0;
  for (const Segment& s : segments) n += s.tokenCount();
  return n;
}

std::size_t Layout::textCount() const {
  std::size_t n = 0;
  for (const Segment& s : segments)
    if (!s.isVisual()) n += s.tokenCount();
  return n;
}

std::size_t Layout::visualCount() const {
  return tokenCount() - textCount();
}

namespace {

const char* kSpecForm =
    "expected t<N> (text), i<H>x<W> (image), v<T>x<H>x<W> (video), img:FILE or vid:FOLDER/, "
    "vid:A+B+C, vid:ANIM.gif, e.g. t5,i3x3,t2";

[[noreturn]] void specError(std::size_t item, std::string_view text, const std::string& why) {
  throw InputError("layout item " + std::to_string(item) + " \"" + std::string(text) + "\": " + why,
                   "layout");
}

// Parses the decimal numbers of one item separated by 'x'; fails on anything else.
std::vector<long long> parseDims(std::size_t item, std::string_view whole, std::string_view body) {
  std::vector<long long> dims;
  std::size_t pos = 0;
  while (true) {
    std::size_t end = body.find('x', pos);
    std::string_view part = body.substr(pos, end == std::string_view::npos ? end : end - pos);
    if (part.empty()) specError(item, whole, std::string("missing number; ") + kSpecForm);
    long long value = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.front() == '-' || part.front() == '+')
      specError(item, whole, "sizes must be positive whole numbers");
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && part.size() > 12))
      specError(item, whole, "number too large");
    if (ec != std::errc() || ptr != part.data() + part.size())
      specError(item, whole,
                std::string(1, '"').append(part) + "\" is not a whole number; " + kSpecForm);
    dims.push_back(value);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return dims;
}

// Every grid side of an image or video item must be 1..kMaxGridSide.
void checkGridSides(std::size_t item, std::string_view text, const std::vector<long long>& dims,
                    const char* what) {
  for (long long v : dims)
    if (v < 1 || v > kMaxGridSide)
      specError(item, text,
                std::string(what) + " must be 1.." + std::to_string(kMaxGridSide) + " (got " +
                    std::to_string(v) + ")");
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

void checkSegment(const Segment& s, std::size_t item, std::string_view text) {
  auto side = [&](long long v, const char* what) {
    if (v < 1 || v > kMaxGridSide)
      specError(item, text,
                std::string(what) + " must be 1.." + std::to_string(kMaxGridSide) + " (got " +
                    std::to_string(v) + ")");
  };
  if (s.kind == SegmentKind::Text) {
    if (s.length < 1 || static_cast<std::size_t>(s.length) > kMaxLayoutTokens)
      specError(item, text,
                "text length must be 1.." + std::to_string(kMaxLayoutTokens) + " (got " +
                    std::to_string(s.length) + ")");
    return;
  }
  if (s.kind == SegmentKind::Video) side(s.frames, "video frames");
  side(s.rows, "grid rows");
  side(s.cols, "grid cols");
}

namespace fs = std::filesystem;

std::string resolvePath(std::string_view raw, const std::string& baseDir) {
  fs::path p{std::string(raw)};
  if (p.is_relative() && !baseDir.empty()) p = fs::path(baseDir) / p;
  return p.string();
}

// img:PATH and vid:... items. Path problems throw InputError with field "image"; the caller
// turns them into a layout error or a reported problem.
Segment parseFileItem(std::size_t item, std::string_view text, const LayoutFileContext& ctx) {
  const bool image = text.substr(0, 4) == "img:";
  std::string_view body = text.substr(4);
  while (!body.empty() && (body.front() == ' ' || body.front() == '\t')) body.remove_prefix(1);
  if (body.empty())
    specError(item, text,
              image ? "img: needs a file, e.g. img:photo.jpg"
                    : "vid: needs a folder, frame files or a GIF, e.g. vid:frames/");
  if (image) {
    // A bare name that is no file here names a shipped sample (sample_pictures.h), and so does
    // a name that resolves to the sample's own file (a preset read from the sample folder).
    const std::string path = resolvePath(body, ctx.baseDir);
    const std::string name(trim(body));
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    if (const std::string sample = locateSample(name);
        !sample.empty() && (!exists || fs::equivalent(path, sample, ec))) {
      Segment s = imageSegmentFromFile(sample, ctx.grid);
      s.source.sample = name;
      return s;
    }
    return imageSegmentFromFile(path, ctx.grid);
  }
  if (body.find('+') != std::string_view::npos) {
    std::vector<std::string> frames;
    std::size_t pos = 0;
    while (true) {
      const std::size_t end = body.find('+', pos);
      const std::string_view part =
          trim(body.substr(pos, end == std::string_view::npos ? end : end - pos));
      if (part.empty()) specError(item, text, "empty frame name in a vid: list (A+B+C)");
      frames.push_back(resolvePath(part, ctx.baseDir));
      if (end == std::string_view::npos) break;
      pos = end + 1;
    }
    return videoSegmentFromFrames(frames, ctx.grid);
  }
  const std::string path = resolvePath(body, ctx.baseDir);
  std::error_code ec;
  if (body.back() == '/' || fs::is_directory(path, ec))
    return videoSegmentFromFolder(path, ctx.grid);
  // One file: an animation gives all its frames; a still picture is a one-frame video.
  return videoSegmentFromAnimation(path, ctx.grid);
}

Layout parseLayoutImpl(std::string_view spec, const LayoutFileContext& files,
                       std::vector<LayoutProblem>* problems);

}  // namespace

void validateLayout(const Layout& layout) {
  if (layout.segments.empty())
    throw InputError(std::string("layout is empty; ") + kSpecForm, "layout");
  std::size_t total = 0;
  for (std::size_t i = 0; i < layout.segments.size(); ++i) {
    const Segment& s = layout.segments[i];
    // Checked in wide integers so a huge item cannot overflow before the check. The item's
    // text is only formatted for the message: a folder video can list thousands of frames and
    // this runs before every ids computation.
    try {
      checkSegment(s, i + 1, {});
    } catch (const InputError&) {
      checkSegment(s, i + 1, formatLayoutSpec(Layout{{s}}));
    }
    total += s.tokenCount();
    if (total > kMaxLayoutTokens)
      throw InputError("layout has more than " + std::to_string(kMaxLayoutTokens) +
                           " tokens (the limit; accepted 1.." + std::to_string(kMaxLayoutTokens) +
                           ")",
                       "layout");
  }
}

Layout parseLayoutSpec(std::string_view spec, const LayoutFileContext& files) {
  return parseLayoutImpl(spec, files, nullptr);
}

Layout parseLayoutSpecKeeping(std::string_view spec, const LayoutFileContext& files,
                              std::vector<LayoutProblem>& problems) {
  return parseLayoutImpl(spec, files, &problems);
}

namespace {

Layout parseLayoutImpl(std::string_view spec, const LayoutFileContext& files,
                       std::vector<LayoutProblem>* problems) {
  validateImageGridSettings(files.grid);
  Layout layout;
  if (trim(spec).empty()) throw InputError(std::string("layout is empty; ") + kSpecForm, "layout");
  std::size_t item = 0;
  std::size_t pos = 0;
  unsigned long long total = 0;
  while (true) {
    ++item;
    std::size_t end = spec.find(',', pos);
    std::string_view raw = spec.substr(pos, end == std::string_view::npos ? end : end - pos);
    std::string_view text = trim(raw);
    if (text.empty())
      specError(item, text,
                end == std::string_view::npos ? "empty item (trailing comma?)" : "empty item");
    const char kind = text.front();
    std::string_view body = text.substr(1);
    Segment s;
    std::vector<long long> d;
    const bool fileItem = text.substr(0, 4) == "img:" || text.substr(0, 4) == "vid:";
    if (fileItem) {
      try {
        s = parseFileItem(item, text, files);
        checkSegment(s, item, text);
      } catch (const InputError& e) {
        if (e.field() == "layout") throw;
        if (!problems) specError(item, text, e.what());
        problems->push_back({item, std::string(text), e.what()});
        if (end == std::string_view::npos) break;
        pos = end + 1;
        continue;
      }
    }
    // -1 marks a file item, done above; a char sentinel would let an item that starts with
    // that byte (a NUL) through as an empty text run.
    switch (fileItem ? -1 : static_cast<unsigned char>(kind)) {
      case -1:
        break;
      case 't':
        d = parseDims(item, text, body);
        if (d.size() != 1) specError(item, text, "text takes one number, e.g. t5");
        if (d[0] < 1 || d[0] > static_cast<long long>(kMaxLayoutTokens))
          specError(item, text,
                    "text length must be 1.." + std::to_string(kMaxLayoutTokens) + " (got " +
                        std::to_string(d[0]) + ")");
        s = Segment::text(static_cast<int>(d[0]));
        break;
      case 'i':
        d = parseDims(item, text, body);
        if (d.size() != 2) specError(item, text, "image takes rows x cols, e.g. i3x3");
        checkGridSides(item, text, d, "image sides");
        s = Segment::image(static_cast<int>(d[0]), static_cast<int>(d[1]));
        break;
      case 'v':
        d = parseDims(item, text, body);
        if (d.size() != 3) specError(item, text, "video takes frames x rows x cols, e.g. v8x16x16");
        checkGridSides(item, text, d, "video sizes");
        s = Segment::video(static_cast<int>(d[0]), static_cast<int>(d[1]), static_cast<int>(d[2]));
        break;
      default:
        specError(item, text, std::string("unknown segment kind '") + kind + "'; " + kSpecForm);
    }
    total += s.tokenCount();
    if (total > kMaxLayoutTokens)
      throw InputError("layout has more than " + std::to_string(kMaxLayoutTokens) +
                           " tokens (the limit; accepted 1.." + std::to_string(kMaxLayoutTokens) +
                           ")",
                       "layout");
    layout.segments.push_back(s);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return layout;
}

}  // namespace

std::string formatLayoutSpec(const Layout& layout, const std::string& baseDir) {
  auto rel = [&](const std::string& path) {
    if (baseDir.empty()) return path;
    std::error_code ec;
    fs::path base = fs::absolute(fs::path(baseDir), ec).lexically_normal();
    return fs::path(path).lexically_proximate(base).string();
  };
  std::string out;
  for (const Segment& s : layout.segments) {
    if (!out.empty()) out += ',';
    switch (s.source.kind) {
      case SourceKind::None:
        break;
      case SourceKind::Image:
        out += "img:" + (s.source.sample.empty() ? rel(s.source.path) : s.source.sample);
        continue;
      case SourceKind::Folder:
        out += "vid:" + rel(s.source.path) + "/";
        continue;
      case SourceKind::Animation:
        out += "vid:" + rel(s.source.path);
        continue;
      case SourceKind::FrameList: {
        out += "vid:";
        for (std::size_t i = 0; i < s.source.frames.size(); ++i)
          out.append(i ? "+" : "").append(rel(s.source.frames[i]));
        // One frame would read back as an animation; the result is the same grid (T = 1).
        continue;
      }
    }
    switch (s.kind) {
      case SegmentKind::Text:
        out += 't' + std::to_string(s.length);
        break;
      case SegmentKind::Image:
        out += 'i' + std::to_string(s.rows) + 'x' + std::to_string(s.cols);
        break;
      case SegmentKind::Video:
        out += 'v' + std::to_string(s.frames) + 'x' + std::to_string(s.rows) + 'x' +
               std::to_string(s.cols);
        break;
    }
  }
  return out;
}

}  // namespace ropescope
