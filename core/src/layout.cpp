// Layout arithmetic and the comma-separated layout spec ("t5,i3x3,t2,v8x16x16").
// The parser reports the first bad item with its position and the accepted form.
#include "ropescope/layout.h"
#include "ropescope/memory_limit.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_family.h"
#include "ropescope/sample_pictures.h"
#include "ropescope/transformers_release.h"

namespace ropescope {

std::size_t Segment::tokenCount() const {
  if (kind == SegmentKind::Text || kind == SegmentKind::Audio)
    return static_cast<std::size_t>(length);
  return static_cast<std::size_t>(frames) * static_cast<std::size_t>(rows) *
         static_cast<std::size_t>(cols);
}

std::vector<std::string> layoutWarnings(const Layout& layout) {
  std::vector<std::string> out;
  for (const Segment& s : layout.segments)
    for (const std::string& w : s.source.warnings)
      if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  return out;
}

std::size_t Layout::tokenCount() const {
  std::size_t n = 0;
  for (const Segment& s : segments) n += s.tokenCount();
  return n;
}

std::size_t Layout::textCount() const {
  std::size_t n = 0;
  for (const Segment& s : segments)
    if (s.isText()) n += s.tokenCount();
  return n;
}

std::size_t Layout::visualCount() const {
  std::size_t n = 0;
  for (const Segment& s : segments)
    if (s.isVisual()) n += s.tokenCount();
  return n;
}

std::size_t Layout::audioCount() const {
  std::size_t n = 0;
  for (const Segment& s : segments)
    if (s.isAudio()) n += s.tokenCount();
  return n;
}

namespace {

const char* kSpecForm =
    "expected t<N> (text), s<N> (special tokens), ts<N> (timestamp text), a<N> (audio tokens), "
    "i<H>x<W> (image), tiled:<W>x<H>[/<MIN>-<MAX>] (an InternVL tiled picture of W x H px), "
    "v<T>x<H>x<W>[#ITEM][@SECONDSs] (video), a<N>#ITEM (a video's sound), FAMILY:i<H>x<W> or "
    "FAMILY:v<T>x<H>x<W>[@SECONDSs][/ts<K>] (a model's image or video with its special tokens), "
    "FAMILY:a<N>, FAMILY:aud:CLIP.wav and FAMILY:v<T>x<H>x<W>+a<N> (omni families), img:FILE or "
    "vid:FOLDER/, "
    "vid:A+B+C, vid:ANIM.gif, aud:CLIP.wav, e.g. t5,i3x3,t2";

// Largest seconds per grid (one temporal patch) a video item accepts.
constexpr double kMaxSecondsPerGrid = 3600.0;

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
    // A sign is read, so that "t-1" meets the size's range check, which names the range.
    if (part.front() == '+') part.remove_prefix(1);
    if (part.empty()) specError(item, whole, std::string("missing number; ") + kSpecForm);
    long long value = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && part.size() > 12))
      specError(item, whole,
                "number too large (lengths are 1.." + std::to_string(kMaxLayoutTokens) +
                    " tokens, image and video sides 1.." + std::to_string(kMaxGridSide) + ")");
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

// Shortest decimal that reads back to the same double (the spec's round trip).
std::string formatSeconds(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, ptr) : std::to_string(v);
}

// A video item's suffixes after the grid: #ITEM (a frame of video item ITEM) and @SECONDS[s]
// (seconds per grid), in either order. `body` is cut to the grid part.
void parseVideoSuffixes(std::size_t item, std::string_view whole, std::string_view& body,
                        Segment& seg) {
  const std::size_t cut = body.find_first_of("#@");
  if (cut == std::string_view::npos) return;
  std::string_view rest = body.substr(cut);
  body = body.substr(0, cut);
  bool sawItem = false, sawSeconds = false;
  while (!rest.empty()) {
    const char mark = rest.front();
    rest.remove_prefix(1);
    const std::size_t end = rest.find_first_of("#@");
    std::string_view value = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    if (mark == '#') {
      if (sawItem) specError(item, whole, "one #ITEM per video");
      sawItem = true;
      long long v = -1;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || v < 0 ||
          v >= static_cast<long long>(kMaxLayoutTokens))
        specError(item, whole,
                  "#ITEM takes the video's index 0.." + std::to_string(kMaxLayoutTokens - 1) +
                      " (got \"" + std::string(value) + "\")");
      seg.videoItem = static_cast<int>(v);
    } else {
      if (sawSeconds) specError(item, whole, "one @SECONDS per video");
      sawSeconds = true;
      if (!value.empty() && value.back() == 's') value.remove_suffix(1);
      double v = 0.0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() ||
          !std::isfinite(v) || v <= 0.0 || v > kMaxSecondsPerGrid)
        specError(item, whole,
                  "@SECONDS takes the seconds per grid in (0, 3600], e.g. v4x8x8@0.5s (got \"" +
                      std::string(value) + "\")");
      seg.secondsPerGrid = v;
    }
  }
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
  if (s.kind != SegmentKind::Text && s.role != TextRole::Plain)
    specError(item, text, "only text runs have a text role (special, timestamp)");
  if (s.kind != SegmentKind::Video && s.secondsPerGrid != 0.0)
    specError(item, text, "only videos have seconds per grid");
  if (s.kind != SegmentKind::Video && s.kind != SegmentKind::Audio && s.videoItem != -1)
    specError(item, text, "only videos and audio (a video's sound) have a video item");
  if (s.kind == SegmentKind::Audio &&
      (s.videoItem < -1 || s.videoItem >= static_cast<long long>(kMaxLayoutTokens)))
    specError(item, text,
              "video item must be 0.." + std::to_string(kMaxLayoutTokens - 1) +
                  ", or -1 for audio of its own (got " + std::to_string(s.videoItem) + ")");
  if (s.kind == SegmentKind::Text || s.kind == SegmentKind::Audio) {
    if (s.length < 1 || static_cast<std::size_t>(s.length) > kMaxLayoutTokens)
      specError(item, text,
                std::string(s.kind == SegmentKind::Audio ? "audio" : "text") +
                    " length must be 1.." + std::to_string(kMaxLayoutTokens) + " (got " +
                    std::to_string(s.length) + ")");
    return;
  }
  if (s.kind == SegmentKind::Video) {
    side(s.frames, "video frames");
    if (!std::isfinite(s.secondsPerGrid) || s.secondsPerGrid < 0.0 ||
        s.secondsPerGrid > kMaxSecondsPerGrid)
      specError(item, text,
                "seconds per grid must be in (0, 3600], or 0 for the design's fps (got " +
                    formatSeconds(s.secondsPerGrid) + ")");
    if (s.videoItem < -1 || s.videoItem >= static_cast<long long>(kMaxLayoutTokens))
      specError(item, text,
                "video item must be 0.." + std::to_string(kMaxLayoutTokens - 1) +
                    ", or -1 for a standalone video (got " + std::to_string(s.videoItem) + ")");
    if (s.videoItem >= 0 && s.frames != 1)
      specError(item, text,
                "a frame of video item " + std::to_string(s.videoItem) +
                    " has one temporal patch (got " + std::to_string(s.frames) + ")");
  }
  if (s.kind != SegmentKind::Image && s.tiles.tiled())
    specError(item, text, "only images are tiled pictures");
  if (s.kind == SegmentKind::Image && s.tiles.tiled() &&
      (s.frames != s.tiles.tileCount() || s.rows != s.tiles.tokenSide ||
       s.cols != s.tiles.tokenSide))
    specError(item, text,
              "a tiled picture has one " + std::to_string(s.tiles.tokenSide) + "x" +
                  std::to_string(s.tiles.tokenSide) + " grid per tile (" +
                  std::to_string(s.tiles.tileCount()) + " tiles)");
  if (s.kind == SegmentKind::Image && !s.tiles.tiled() && s.frames != 1)
    specError(item, text, "an image has one frame (got " + std::to_string(s.frames) + ")");
  side(s.rows, "grid rows");
  side(s.cols, "grid cols");
}

// tiled:<W>x<H>[/<MIN>-<MAX>]: the picture size in pixels, and InternVL's min_num-max_num tiles
// (default 1-12); tiles of 448 px, 256 tokens each (16 x 16), a thumbnail past one tile.
Segment parseTiledItem(std::size_t item, std::string_view text) {
  std::string_view body = text.substr(6);
  TileSettings settings;
  if (const std::size_t slash = body.find('/'); slash != std::string_view::npos) {
    const std::string_view range = body.substr(slash + 1);
    const std::size_t dash = range.find('-');
    if (dash == std::string_view::npos)
      specError(item, text, "tiles range is /<MIN>-<MAX>, e.g. tiled:1920x1080/1-6");
    const std::vector<long long> lo = parseDims(item, text, range.substr(0, dash));
    const std::vector<long long> hi = parseDims(item, text, range.substr(dash + 1));
    if (lo.size() != 1 || hi.size() != 1)
      specError(item, text, "tiles range is /<MIN>-<MAX>, e.g. tiled:1920x1080/1-6");
    if (lo[0] < 1 || hi[0] < lo[0] || hi[0] > kMaxTiles)
      specError(item, text,
                "tiles range must be 1 <= MIN <= MAX <= " + std::to_string(kMaxTiles) + " (got " +
                    std::to_string(lo[0]) + "-" + std::to_string(hi[0]) + ")");
    settings.minTiles = static_cast<int>(lo[0]);
    settings.maxTiles = static_cast<int>(hi[0]);
    body = body.substr(0, slash);
  }
  const std::vector<long long> d = parseDims(item, text, body);
  if (d.size() != 2)
    specError(item, text, "a tiled picture takes <W>x<H> pixels, e.g. tiled:1920x1080");
  TileGrid g;
  try {
    g = internvlTiles(d[0], d[1], settings);
  } catch (const InputError& e) {
    specError(item, text, e.what());
  }
  Segment s = Segment::image(g.tokenSide, g.tokenSide);
  s.frames = g.tileCount();
  s.tiles = g;
  return s;
}

namespace fs = std::filesystem;

std::string resolvePath(std::string_view raw, const std::string& baseDir) {
  fs::path p{std::string(raw)};
  if (p.is_relative() && !baseDir.empty()) p = fs::path(baseDir) / p;
  return p.string();
}

// True for the file items: img:PATH, vid:..., aud:PATH.
bool isFileItem(std::string_view text) {
  const std::string_view p = text.substr(0, 4);
  return p == "img:" || p == "vid:" || p == "aud:";
}

// A bare name that is no file here names a shipped sample (sample_pictures.h), and so does a
// name that resolves to the sample's own file (a preset read from the sample folder). Returns
// the sample's file, or "" for the user's own file at `path`.
std::string sampleFile(const std::string& name, const std::string& path) {
  const std::string sample = locateSample(name);
  if (sample.empty()) return {};
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  return !exists || fs::equivalent(path, sample, ec) ? sample : std::string();
}

// img:PATH, vid:... and aud:PATH items. Path problems throw InputError with field "image" (or
// "sound"); the caller turns them into a layout error or a reported problem.
Segment parseFileItem(std::size_t item, std::string_view text, const LayoutFileContext& ctx) {
  const std::string_view prefix = text.substr(0, 4);
  const bool image = prefix == "img:";
  const bool sound = prefix == "aud:";
  std::string_view body = text.substr(4);
  while (!body.empty() && (body.front() == ' ' || body.front() == '\t')) body.remove_prefix(1);
  if (body.empty())
    specError(item, text,
              image   ? "img: needs a file, e.g. img:photo.jpg"
              : sound ? "aud: needs a sound file, e.g. aud:clip.wav"
                      : "vid: needs a folder, frame files or a GIF, e.g. vid:frames/");
  if (image || sound) {
    const std::string path = resolvePath(body, ctx.baseDir);
    const std::string name(trim(body));
    const std::string sample = sampleFile(name, path);
    Segment s = sound ? soundSegmentFromFile(sample.empty() ? path : sample, ctx.audio)
                      : imageSegmentFromFile(sample.empty() ? path : sample, ctx.grid);
    if (!sample.empty()) s.source.sample = name;
    return s;
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
  // vid:moving.gif, the shipped animation, as img:castle.png is the shipped picture.
  if (const std::string name(trim(body)), sample = sampleFile(name, path); !sample.empty()) {
    Segment s = videoSegmentFromAnimation(sample, ctx.grid);
    s.source.sample = name;
    return s;
  }
  std::error_code ec;
  if (body.back() == '/' || fs::is_directory(path, ec))
    return videoSegmentFromFolder(path, ctx.grid);
  // One file: an animation gives all its frames; a still picture is a one-frame video.
  return videoSegmentFromAnimation(path, ctx.grid);
}

// t<N>, s<N>, ts<N>, i<H>x<W>, v<T>x<H>x<W>[#ITEM][@SECONDS]. `whole` is the item as written
// (for messages), `text` the part that names the segment.
Segment parsePlainItem(std::size_t item, std::string_view whole, std::string_view text) {
  const char kind = text.front();
  std::string_view body = text.substr(1);
  std::vector<long long> d;
  Segment s;
  // A char sentinel would let an item that starts with an odd byte (a NUL) through; every
  // kind is matched explicitly.
  switch (static_cast<unsigned char>(kind)) {
    case 't':
    case 's': {
      TextRole role = kind == 's' ? TextRole::Special : TextRole::Plain;
      if (kind == 't' && !body.empty() && body.front() == 's') {
        role = TextRole::Timestamp;
        body.remove_prefix(1);
      }
      const char* example = role == TextRole::Special ? "special tokens take one number, e.g. s1"
                            : role == TextRole::Timestamp
                                ? "timestamp text takes one number, e.g. ts4"
                                : "text takes one number, e.g. t5";
      d = parseDims(item, whole, body);
      if (d.size() != 1) specError(item, whole, example);
      if (d[0] < 1 || d[0] > static_cast<long long>(kMaxLayoutTokens))
        specError(item, whole,
                  "text length must be 1.." + std::to_string(kMaxLayoutTokens) + " (got " +
                      std::to_string(d[0]) + ")");
      s = Segment::text(static_cast<int>(d[0]), role);
      break;
    }
    case 'a': {
      // a<N>#ITEM: audio tokens of video item ITEM's own sound (omni models, layout.h).
      Segment suffixes;
      parseVideoSuffixes(item, whole, body, suffixes);
      if (suffixes.secondsPerGrid != 0.0)
        specError(item, whole, "audio takes no @SECONDS; a<N> or a<N>#ITEM, e.g. a40#0");
      d = parseDims(item, whole, body);
      if (d.size() != 1) specError(item, whole, "audio takes one number of tokens, e.g. a40");
      if (d[0] < 1 || d[0] > static_cast<long long>(kMaxLayoutTokens))
        specError(item, whole,
                  "audio length must be 1.." + std::to_string(kMaxLayoutTokens) + " (got " +
                      std::to_string(d[0]) + ")");
      s = Segment::audio(static_cast<int>(d[0]));
      s.videoItem = suffixes.videoItem;
      break;
    }
    case 'i':
      d = parseDims(item, whole, body);
      if (d.size() != 2) specError(item, whole, "image takes rows x cols, e.g. i3x3");
      checkGridSides(item, whole, d, "image sides");
      s = Segment::image(static_cast<int>(d[0]), static_cast<int>(d[1]));
      break;
    case 'v': {
      Segment suffixes;
      parseVideoSuffixes(item, whole, body, suffixes);
      d = parseDims(item, whole, body);
      if (d.size() != 3) specError(item, whole, "video takes frames x rows x cols, e.g. v8x16x16");
      checkGridSides(item, whole, d, "video sizes");
      s = Segment::video(static_cast<int>(d[0]), static_cast<int>(d[1]), static_cast<int>(d[2]));
      s.secondsPerGrid = suffixes.secondsPerGrid;
      s.videoItem = suffixes.videoItem;
      checkSegment(s, item, whole);
      break;
    }
    default:
      specError(item, whole, "unknown segment kind '" + firstCharacter(text) + "'; " + kSpecForm);
  }
  return s;
}

// The family a model item names before its colon; an unknown name is a layout error.
const ModelFamily& itemFamily(std::size_t item, std::string_view text, std::size_t colon) {
  const std::string familyName(text.substr(0, colon));
  const ModelFamily* family = nullptr;
  std::string known;
  for (const ModelFamily* f : allFamilies()) {
    if (f->name() == familyName) family = f;
    known += ", " + f->name();
  }
  if (!family)
    specError(item, text,
              "unknown prefix \"" + familyName + "\" (accepted: img, vid, aud" + known + ")");
  return *family;
}

// FAMILY:aud:CLIP.wav: an omni family's sound file, its audio tokens counted by the family's
// rule, between <|audio_bos|> and <|audio_eos|> (as FAMILY:a<N>). File problems throw as
// parseFileItem's do.
std::vector<Segment> parseModelFileItem(std::size_t item, std::string_view text, std::size_t colon,
                                        const LayoutFileContext& files) {
  const ModelFamily& family = itemFamily(item, text, colon);
  const std::string_view body = text.substr(colon + 1);
  if (body.substr(0, 4) != "aud:" || !family.omni())
    specError(item, text,
              "a model's file item is FAMILY:aud:CLIP.wav, for the omni families (qwen2.5-omni, "
              "qwen3-omni); pictures and videos are img:FILE and vid:..., without a family");
  LayoutFileContext ctx = files;
  ctx.audio = family.omni()->audio;
  Segment sound = parseFileItem(item, body, ctx);
  checkSegment(sound, item, text);
  const Segment special = Segment::text(1, TextRole::Special);
  return {special, sound, special};
}

// FAMILY:i<H>x<W> and FAMILY:v<T>x<H>x<W>[@SECONDS][/ts<K>]: the tokens the family's processor
// writes for an image or a video (model_family.h, VideoTokens). `videoEntries` numbers the
// frames of a per-frame video.
std::vector<Segment> parseModelItem(std::size_t item, std::string_view text, std::size_t colon,
                                    int& videoEntries, const LayoutFileContext& files) {
  const ModelFamily* family = &itemFamily(item, text, colon);
  std::string_view body = text.substr(colon + 1);
  // FAMILY:v...+a<N>: the video with its own sound (omni families).
  std::string_view sound;
  if (const std::size_t plus = body.find('+'); plus != std::string_view::npos) {
    sound = body.substr(plus + 1);
    body = body.substr(0, plus);
    if (!family->omni())
      specError(item, text,
                family->name() +
                    " takes no audio; +a<N> (a video's sound) needs qwen2.5-omni or qwen3-omni");
    if (sound.empty() || sound.front() != 'a' || sound.find('#') != std::string_view::npos)
      specError(item, text,
                "a video's sound is +a<N> (its audio tokens), e.g. " + family->name() +
                    ":v4x8x8@1s+a100");
  }
  int stampTokens = 1;
  const std::size_t slash = body.find('/');
  if (slash != std::string_view::npos) {
    const std::string_view stamp = body.substr(slash + 1);
    body = body.substr(0, slash);
    long long k = 0;
    const bool ok = stamp.size() > 2 && stamp.substr(0, 2) == "ts" && [&] {
      auto [ptr, ec] = std::from_chars(stamp.data() + 2, stamp.data() + stamp.size(), k);
      return ec == std::errc() && ptr == stamp.data() + stamp.size();
    }();
    if (!ok || k < 1 || k > 64)
      specError(item, text,
                "/ts<K> takes the tokens of one timestamp, 1..64, e.g. qwen3-vl:v4x8x8@1s/ts6");
    stampTokens = static_cast<int>(k);
  }
  const bool audioOk = family->omni() != nullptr;
  if (body.empty() ||
      (body.front() != 'i' && body.front() != 'v' && (body.front() != 'a' || !audioOk)))
    specError(item, text,
              std::string("a model's item is FAMILY:i<H>x<W> or FAMILY:v<T>x<H>x<W>[@SECONDSs]") +
                  (audioOk ? "[+a<N>], or FAMILY:a<N> (audio)" : "[/ts<K>]") + ", e.g. " +
                  family->name() + ":i3x3");
  Segment media = parsePlainItem(item, text, body);
  if (media.videoItem >= 0)
    specError(item, text, "a model's video numbers its frames itself; drop #ITEM");
  const Segment special = Segment::text(1, TextRole::Special);
  if (media.isAudio()) {
    if (slash != std::string_view::npos) specError(item, text, "audio has no timestamp text");
    return {special, media, special};  // <|audio_bos|>, <|AUDIO|> x N, <|audio_eos|>
  }
  if (!sound.empty()) {
    if (media.kind != SegmentKind::Video)
      specError(item, text, "only a video has a sound of its own (+a<N>)");
    if (slash != std::string_view::npos)
      specError(item, text, "omni videos have no timestamp text");
    const Segment audio = parsePlainItem(item, text, sound);
    try {
      return omniVideoWithSound(*family, media, audio.length, videoEntries++);
    } catch (const InputError& e) {
      specError(item, text, e.what());
    }
  }
  const VideoTokens form = family->videoTokens();
  const bool perFrame = media.kind == SegmentKind::Video && form != VideoTokens::OneBlock;
  if (slash != std::string_view::npos && !perFrame)
    specError(item, text,
              media.kind == SegmentKind::Image
                  ? std::string("images have no timestamp text; drop /ts<K>")
                  : family->name() + " videos have no timestamp text; drop /ts<K>");
  const Segment stamp = Segment::text(stampTokens, TextRole::Timestamp);
  std::vector<Segment> out;
  if (!perFrame) {
    if (media.kind == SegmentKind::Video) ++videoEntries;
    return {special, media, special};
  }
  Segment frame = media;
  frame.frames = 1;
  frame.videoItem = videoEntries++;
  // The release's processor: from 5.10.1 (#45493) Qwen3-VL's keeps the template's outer
  // <|vision_start|> ... <|vision_end|> around the frames. A family the release does not have
  // is refused by its design, not here.
  bool outer = false;
  try {
    outer = resolveRules(family->name(), files.rules.value_or(std::size_t(RuleSet::Hf457)))
                .rules.outerVisionMarks;
  } catch (const InputError&) {
  }
  if (form == VideoTokens::FramesAsImages || outer) out.push_back(special);  // begin of video
  for (int f = 0; f < media.frames; ++f) {
    if (form == VideoTokens::FrameBlocks) out.push_back(stamp);  // "<t seconds>" first
    out.push_back(special);
    out.push_back(frame);
    out.push_back(special);
    if (form == VideoTokens::FramesAsImages) out.push_back(stamp);  // "t" after the frame
  }
  if (form == VideoTokens::FramesAsImages || outer) out.push_back(special);  // end of video
  return out;
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
  }
  checkTokensFit(total, "layout");
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
  int videoEntries = 0;  // video_grid_thw entries so far: the next model video's #ITEM
  while (true) {
    ++item;
    std::size_t end = spec.find(',', pos);
    std::string_view raw = spec.substr(pos, end == std::string_view::npos ? end : end - pos);
    std::string_view text = trim(raw);
    if (text.empty())
      specError(item, text,
                end == std::string_view::npos ? "empty item (trailing comma?)" : "empty item");
    Segment s;
    std::vector<Segment> expanded;  // a model's item: several segments
    const bool fileItem = isFileItem(text);
    const std::size_t colon = text.find(':');
    const bool modelFileItem =
        !fileItem && colon != std::string_view::npos && isFileItem(text.substr(colon + 1));
    if (fileItem || modelFileItem) {
      try {
        if (modelFileItem) {
          expanded = parseModelFileItem(item, text, colon, files);
        } else {
          s = parseFileItem(item, text, files);
          checkSegment(s, item, text);
        }
      } catch (const InputError& e) {
        if (e.field() == "layout") throw;
        if (!problems) specError(item, text, e.what());
        problems->push_back({item, std::string(text), e.what()});
        if (end == std::string_view::npos) break;
        pos = end + 1;
        continue;
      }
    } else if (text.substr(0, 6) == "tiled:") {
      s = parseTiledItem(item, text);
      checkSegment(s, item, text);
    } else if (colon != std::string_view::npos) {
      expanded = parseModelItem(item, text, colon, videoEntries, files);
    } else {
      s = parsePlainItem(item, text, text);
    }
    if (expanded.empty()) {
      if (s.kind == SegmentKind::Video)
        videoEntries =
            s.videoItem >= 0 ? std::max(videoEntries, s.videoItem + 1) : videoEntries + 1;
      expanded.push_back(s);
    }
    for (const Segment& e : expanded) total += e.tokenCount();
    checkTokensFit(total, "layout");
    layout.segments.insert(layout.segments.end(), expanded.begin(), expanded.end());
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
      case SourceKind::Sound:
        out += "aud:" + (s.source.sample.empty() ? rel(s.source.path) : s.source.sample);
        continue;
      case SourceKind::Folder:
        out += "vid:" + rel(s.source.path) + "/";
        continue;
      case SourceKind::Animation:
        out += "vid:" + (s.source.sample.empty() ? rel(s.source.path) : s.source.sample);
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
        out += s.role == TextRole::Special ? "s" : s.role == TextRole::Timestamp ? "ts" : "t";
        out += std::to_string(s.length);
        break;
      case SegmentKind::Audio:
        out += 'a' + std::to_string(s.length);
        if (s.videoItem >= 0) out += '#' + std::to_string(s.videoItem);
        break;
      case SegmentKind::Image:
        if (s.tiles.tiled()) {
          out += "tiled:" + std::to_string(s.tiles.width) + 'x' + std::to_string(s.tiles.height);
          if (s.tiles.minTiles != TileSettings{}.minTiles ||
              s.tiles.maxTiles != TileSettings{}.maxTiles)
            out += '/' + std::to_string(s.tiles.minTiles) + '-' + std::to_string(s.tiles.maxTiles);
          break;
        }
        out += 'i' + std::to_string(s.rows) + 'x' + std::to_string(s.cols);
        break;
      case SegmentKind::Video:
        out += 'v' + std::to_string(s.frames) + 'x' + std::to_string(s.rows) + 'x' +
               std::to_string(s.cols);
        if (s.videoItem >= 0) out += '#' + std::to_string(s.videoItem);
        if (s.secondsPerGrid > 0.0) out += '@' + formatSeconds(s.secondsPerGrid) + 's';
        break;
    }
  }
  return out;
}

}  // namespace ropescope
