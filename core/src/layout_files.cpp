// Segments from picture and sound files. Only headers are read (probeImage, probeSound), so
// adding a folder of a thousand frames costs a thousand small reads, not a thousand decodes.
#include "ropescope/layout_files.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "ropescope/errors.h"
#include "ropescope/image_probe.h"
#include "ropescope/report.h"

namespace ropescope {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fileError(const std::string& path, const std::string& problem) {
  throw InputError(path + ": " + problem, "image");
}

std::string absolutePath(const std::string& path, const char* field = "image") {
  if (path.empty()) throw InputError("empty file name", field);
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  p = p.lexically_normal();
  if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();  // "frames/" -> "frames"
  return p.string();
}

// smart_resize with the file named in the message when the picture is refused.
ImageGrid gridFor(const std::string& path, const ImageInfo& info, const ImageGridSettings& grid) {
  try {
    return smartResize(info.height, info.width, grid);
  } catch (const InputError& e) {
    if (e.field() != "image") throw;  // bad settings: not the file's fault
    fileError(path, e.what());
  }
}

void describe(SegmentSource& src, const ImageInfo& info, const ImageGrid& g) {
  src.width = info.width;
  src.height = info.height;
  src.resizedWidth = g.resizedWidth;
  src.resizedHeight = g.resizedHeight;
  if (!info.warning.empty()) src.warnings.push_back(info.warning);
}

// A single-file source (picture or animation): probed header, grid, and described source.
struct ProbedFile {
  SegmentSource source;
  ImageInfo info;
  ImageGrid grid;
};

ProbedFile probeFileSource(SourceKind kind, const std::string& path,
                           const ImageGridSettings& settings) {
  validateImageGridSettings(settings);
  ProbedFile f;
  f.source.kind = kind;
  f.source.path = absolutePath(path);
  f.info = probeImage(f.source.path);
  f.grid = gridFor(f.source.path, f.info, settings);
  describe(f.source, f.info, f.grid);
  return f;
}

// Natural order: runs of digits compare as numbers, so frame2 sorts before frame10.
bool naturalLess(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      std::size_t zi = i, zj = j;  // skip leading zeros, then longer means larger
      while (zi + 1 < ei && a[zi] == '0') ++zi;
      while (zj + 1 < ej && b[zj] == '0') ++zj;
      if (ei - zi != ej - zj) return ei - zi < ej - zj;
      const int c = a.compare(zi, ei - zi, b, zj, ej - zj);
      if (c != 0) return c < 0;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;  // "f01" vs "f1": keep a total order
}

Segment videoSegment(SegmentSource src, const ImageGrid& g, int frameCount) {
  src.frameCount = frameCount;
  Segment s = Segment::video(temporalPatches(frameCount), g.rows, g.cols);
  s.source = std::move(src);
  return s;
}

// The mel frames and tokens of a sound source under `rule`, from its rate and seconds.
void tokenizeSound(Segment& s, AudioTokenRule rule) {
  SegmentSource& src = s.source;
  const long long frames = std::llround(src.seconds * src.sampleRate);
  src.melFrames = melFramesOfSamples(featureSamples(frames, src.sampleRate), rule);
  s.length = static_cast<int>(audioTokens(src.melFrames, rule));
}

// The rule a sound segment was made with: the one that gives its mel frames and length.
AudioTokenRule ruleOf(const Segment& s) {
  for (AudioTokenRule r : {AudioTokenRule::Qwen25Omni, AudioTokenRule::Qwen3Omni}) {
    Segment t = s;
    tokenizeSound(t, r);
    if (t.length == s.length && t.source.melFrames == s.source.melFrames) return r;
  }
  return AudioTokenRule::Qwen25Omni;
}

}  // namespace

const std::vector<std::string>& pictureExtensions() {
  static const std::vector<std::string> exts = {"png",  "jpg", "jpeg", "bmp",
                                                "webp", "gif", "tif",  "tiff"};
  return exts;
}

std::vector<std::string> listFrameFiles(const std::string& folder) {
  const std::string dir = absolutePath(folder);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    fileError(dir, fs::exists(dir, ec) ? "is not a folder" : "folder not found");
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (!it->is_regular_file(ec)) continue;
    std::string ext = it->path().extension().string();
    if (!ext.empty()) ext.erase(0, 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto& known = pictureExtensions();
    if (std::find(known.begin(), known.end(), ext) == known.end()) continue;
    names.push_back(name);
    if (names.size() > static_cast<std::size_t>(kMaxVideoFrames))
      fileError(dir, "more than " + std::to_string(kMaxVideoFrames) + " frames");
  }
  if (ec) fileError(dir, "cannot list the folder (" + ec.message() + ")");
  if (names.empty())
    fileError(dir, "no picture files in the folder (png, jpg, jpeg, bmp, webp, gif, tif, tiff)");
  std::sort(names.begin(), names.end(), naturalLess);
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& n : names) out.push_back((fs::path(dir) / n).string());
  return out;
}

Segment imageSegmentFromFile(const std::string& path, const ImageGridSettings& grid) {
  ProbedFile f = probeFileSource(SourceKind::Image, path, grid);
  Segment s = Segment::image(f.grid.rows, f.grid.cols);
  s.source = std::move(f.source);
  return s;
}

Segment videoSegmentFromFrames(const std::vector<std::string>& frames,
                               const ImageGridSettings& grid) {
  validateImageGridSettings(grid);
  if (frames.empty()) throw InputError("a video needs at least one frame", "image");
  if (frames.size() > static_cast<std::size_t>(kMaxVideoFrames))
    throw InputError("a video takes at most " + std::to_string(kMaxVideoFrames) + " frames (got " +
                         std::to_string(frames.size()) + ")",
                     "image");
  SegmentSource src;
  src.kind = SourceKind::FrameList;
  ImageInfo first;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const std::string p = absolutePath(frames[i]);
    const ImageInfo info = probeImage(p);
    if (!info.warning.empty()) src.warnings.push_back(info.warning);
    if (i == 0) {
      first = info;
    } else if (info.width != first.width || info.height != first.height) {
      fileError(p, "frame " + std::to_string(i + 1) + " is " + std::to_string(info.width) + "x" +
                       std::to_string(info.height) + " but the first frame (" + src.frames[0] +
                       ") is " + std::to_string(first.width) + "x" + std::to_string(first.height) +
                       "; all frames of a video share one size");
    }
    src.frames.push_back(p);
  }
  ImageInfo shown = first;
  shown.warning.clear();
  const ImageGrid g = gridFor(src.frames[0], first, grid);
  describe(src, shown, g);
  return videoSegment(std::move(src), g, static_cast<int>(frames.size()));
}

Segment videoSegmentFromFolder(const std::string& folder, const ImageGridSettings& grid) {
  Segment s = videoSegmentFromFrames(listFrameFiles(folder), grid);
  s.source.kind = SourceKind::Folder;
  s.source.path = absolutePath(folder);
  return s;
}

Segment videoSegmentFromAnimation(const std::string& path, const ImageGridSettings& grid) {
  ProbedFile f = probeFileSource(SourceKind::Animation, path, grid);
  f.source.fps = f.info.fps;
  return videoSegment(std::move(f.source), f.grid, f.info.frames);
}

Segment soundSegmentFromFile(const std::string& path, AudioTokenRule rule) {
  Segment s = Segment::audio(0);
  SegmentSource& src = s.source;
  src.kind = SourceKind::Sound;
  src.path = absolutePath(path, "sound");
  const SoundInfo info = probeSound(src.path);
  src.sampleRate = info.sampleRate;
  src.channels = info.channels;
  src.seconds = info.seconds;
  tokenizeSound(s, rule);
  if (s.length < 1) {
    // The shortest clip with one token: the first whole number of 16 kHz samples that gives one.
    long long samples = 1;
    while (audioTokens(melFramesOfSamples(samples, rule), rule) < 1) samples += 1;
    throw InputError(src.path + ": the sound lasts " + formatDouble(info.seconds) +
                         " s, too short for one " + audioTokenRuleName(rule) +
                         " audio token (needs at least " +
                         formatDouble(static_cast<double>(samples) / kFeatureRate) + " s)",
                     "sound");
  }
  return s;
}

void setAudioTokenRule(Layout& layout, AudioTokenRule rule) {
  for (Segment& s : layout.segments)
    if (s.source.kind == SourceKind::Sound) tokenizeSound(s, rule);
}

Segment refreshFileSegment(const Segment& segment, const ImageGridSettings& grid) {
  switch (segment.source.kind) {
    case SourceKind::None:
      return segment;
    case SourceKind::Image: {
      Segment s = imageSegmentFromFile(segment.source.path, grid);
      s.source.sample = segment.source.sample;  // still the shipped sample
      return s;
    }
    case SourceKind::FrameList:
      return videoSegmentFromFrames(segment.source.frames, grid);
    case SourceKind::Folder:
      return videoSegmentFromFolder(segment.source.path, grid);
    case SourceKind::Animation: {
      Segment s = videoSegmentFromAnimation(segment.source.path, grid);
      s.source.sample = segment.source.sample;
      return s;
    }
    case SourceKind::Sound: {
      Segment s = soundSegmentFromFile(segment.source.path, ruleOf(segment));
      s.source.sample = segment.source.sample;
      return s;
    }
  }
  return segment;
}

void regridLayout(Layout& layout, const ImageGridSettings& grid) {
  validateImageGridSettings(grid);
  Layout out = layout;
  for (Segment& s : out.segments)  // a sound does not depend on the picture settings
    if (s.source.kind != SourceKind::Sound) s = refreshFileSegment(s, grid);
  layout = std::move(out);
}

}  // namespace ropescope
