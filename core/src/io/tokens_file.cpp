// The processor-output reader (a SAX pass: keys ropescope does not need, pixel_values above
// all, are skipped without being stored) and the walk that turns the token sequence into
// segments, as the families' processors write it (processing_qwen2_vl.py, processing_qwen3_vl.py,
// processing_glm4v.py, processing_ernie4_5_vl_moe.py).
#include "ropescope/tokens_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "ropescope/errors.h"
#include "ropescope/memory_limit.h"
#include "ropescope/npy.h"
#include "ropescope/report.h"
#include "ropescope/transformers_release.h"

namespace ropescope {

using TokensJson = nlohmann::json;

namespace {

std::string entries(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " entry" : " entries");
}

[[noreturn]] void fail(const std::string& what) {
  throw InputError(what, "tokens");
}

// Numbers of one needed key, with the shape of its nested lists.
struct Tensor {
  std::vector<double> values;
  std::vector<std::size_t> shape;
  bool integral = true;
};

constexpr const char* kKeys[] = {"input_ids",
                                 "attention_mask",
                                 "mm_token_type_ids",
                                 "image_grid_thw",
                                 "video_grid_thw",
                                 "second_per_grid_ts",
                                 "video_second_per_grid",  // the omni processors' name
                                 "feature_attention_mask",
                                 "audio_feature_lengths"};
// Values read per key at most: a batch of one sequence as long as this machine's memory takes
// (memory_limit.h), with room; a file claiming more is refused before it is read further.
std::size_t maxValues() {
  static const std::size_t most = static_cast<std::size_t>(4 * maxTokensInMemory());
  return most;
}

class Reader final : public nlohmann::json_sax<TokensJson> {
 public:
  explicit Reader(std::string what) : what_(std::move(what)) {}
  std::map<std::string, Tensor> found;

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a true/false value"); }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v), true); }
  bool number_unsigned(number_unsigned_t v) override {
    return number(static_cast<double>(v), true);
  }
  bool number_float(number_float_t v, const string_t&) override { return number(v, false); }
  bool string(string_t&) override { return scalar("a string"); }
  bool binary(binary_t&) override { return scalar("binary data"); }
  bool start_object(std::size_t) override {
    if (depth_ == 0) {
      ++depth_;
      return true;
    }
    // Under a key it reads (at any depth, its value itself included): an object is refused.
    if (current_ != nullptr && depth_ >= 1)
      fail(what_ + ": \"" + key_ + "\" must be a list of numbers (got an object)");
    ++depth_;
    return true;
  }
  bool end_object() override {
    --depth_;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) {
      key_ = k;
      current_ = nullptr;
      if (std::find(std::begin(kKeys), std::end(kKeys), k) != std::end(kKeys)) {
        if (found.count(k)) fail(what_ + ": key \"" + k + "\" given twice");
        current_ = &found[k];
        level_.clear();
        numbers_.clear();
      }
    }
    return true;
  }
  bool start_array(std::size_t) override {
    if (depth_ == 0) fail(what_ + ": not a JSON object of arrays (the top level is a list)");
    ++depth_;
    if (capturing()) {
      if (level_.size() >= 4) fail(what_ + ": \"" + key_ + "\" has more than 4 nesting levels");
      if (!numbers_.empty() && numbers_.back())
        fail(what_ + ": \"" + key_ + "\" mixes numbers and lists at one level");
      if (!level_.empty()) ++level_.back();
      level_.push_back(0);
      numbers_.push_back(false);
      if (current_->shape.size() < level_.size()) current_->shape.push_back(kUnset);
    }
    return true;
  }
  bool end_array() override {
    if (capturing()) {
      const std::size_t l = level_.size() - 1;
      std::size_t& dim = current_->shape[l];
      if (dim == kUnset) dim = level_.back();
      if (dim != level_.back())
        fail(what_ + ": \"" + key_ + "\" is ragged (lists of " + std::to_string(dim) + " and " +
             std::to_string(level_.back()) + " entries at one level)");
      level_.pop_back();
      numbers_.pop_back();
    }
    --depth_;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    std::string m = e.what();
    if (auto p = m.find("] "); m.rfind("[json.exception.", 0) == 0 && p != std::string::npos)
      m.erase(0, p + 2);
    fail(what_ + ": not valid JSON at byte " + std::to_string(position) + " (" + m + ")");
  }

 private:
  static constexpr std::size_t kUnset = static_cast<std::size_t>(-1);
  bool capturing() const { return current_ != nullptr && depth_ >= 2; }
  bool scalar(const char* kind) {
    if (current_ && depth_ >= 1)
      fail(what_ + ": \"" + key_ + "\" must hold numbers (got " + kind + ")");
    return true;
  }
  bool number(double v, bool integral) {
    if (!current_ || depth_ < 1) return true;
    if (depth_ == 1) {  // a bare number: a 0-d value
      if (!current_->shape.empty() || !current_->values.empty())
        fail(what_ + ": \"" + key_ + "\" is malformed");
    } else {
      if (level_.empty() || level_.size() != current_->shape.size())
        fail(what_ + ": \"" + key_ + "\" mixes numbers and lists at one level");
      ++level_.back();
      numbers_.back() = true;
    }
    if (current_->values.size() >= maxValues())
      fail(what_ + ": \"" + key_ + "\" holds more than " + std::to_string(maxValues()) +
           " numbers (limit: this machine's memory takes layouts of up to " +
           std::to_string(maxTokensInMemory()) + " tokens)");
    current_->values.push_back(v);
    current_->integral = current_->integral && integral;
    return true;
  }

  std::string what_;
  int depth_ = 0;
  std::string key_;
  Tensor* current_ = nullptr;
  std::vector<std::size_t> level_;  // entries seen so far at each open list level
  std::vector<bool> numbers_;       // whether each open list level holds numbers
};

std::string shapeText(const std::vector<std::size_t>& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// A per-token key ([N], [1, N] or [B, N]) as rows of whole numbers in [lo, hi].
std::vector<std::vector<long long>> rowsOf(const Tensor& t, const std::string& key,
                                           const std::string& what, long long lo, long long hi) {
  if (t.shape.size() != 1 && t.shape.size() != 2)
    fail(what + ": \"" + key + "\" must be [N], [1, N] or [B, N] (got shape " + shapeText(t.shape) +
         ")");
  const std::size_t rows = t.shape.size() == 2 ? t.shape[0] : 1;
  const std::size_t n = t.shape.back();
  std::vector<std::vector<long long>> out(rows);
  for (std::size_t i = 0; i < t.values.size(); ++i) {
    const double v = t.values[i];
    if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || v != std::floor(v)) {
      const std::string at =
          rows > 1 ? std::to_string(i / n) + "][" + std::to_string(i % n) : std::to_string(i);
      fail(what + ": \"" + key + "\"[" + at + "] must be a whole number in " + std::to_string(lo) +
           ".." + std::to_string(hi) + " (got " + TokensJson(v).dump() + ")");
    }
    out[i / std::max<std::size_t>(n, 1)].push_back(static_cast<long long>(v));
  }
  return out;
}

std::vector<std::array<long long, 3>> grids(const Tensor& t, const std::string& key,
                                            const std::string& what) {
  std::vector<std::array<long long, 3>> out;
  if (t.values.empty()) return out;  // [] or [[]]: no entries
  if (t.shape.size() != 2 || t.shape[1] != 3)
    fail(what + ": \"" + key + "\" must be [K, 3] rows of t, h, w (got shape " +
         shapeText(t.shape) + ")");
  for (std::size_t k = 0; k < t.shape[0]; ++k) {
    std::array<long long, 3> g{};
    for (std::size_t a = 0; a < 3; ++a) {
      const double v = t.values[3 * k + a];
      if (!(v >= 1 && v <= (1 << 20)) || v != std::floor(v))
        fail(what + ": \"" + key + "\"[" + std::to_string(k) + "] must hold whole numbers in " +
             "1..1048576 (got " + TokensJson(v).dump() + ")");
      g[a] = static_cast<long long>(v);
    }
    out.push_back(g);
  }
  return out;
}

TokenRows assemble(std::map<std::string, Tensor>& found, const std::string& what) {
  const auto ids = found.find("input_ids");
  if (ids == found.end())
    fail(what +
         ": no \"input_ids\" (save the processor's whole output: "
         "json.dump({k: v.tolist() for k, v in inputs.items()}, f))");
  const std::vector<std::vector<long long>> all =
      rowsOf(ids->second, "input_ids", what, 0, 1LL << 40);
  const std::size_t rows = all.size();
  if (rows == 0 || all.front().empty()) fail(what + ": no tokens (input_ids empty)");
  const std::size_t n = all.front().size();
  std::vector<std::vector<long long>> mask(rows, std::vector<long long>(n, 1)), types;
  for (const char* key : {"attention_mask", "mm_token_type_ids"}) {
    const auto it = found.find(key);
    if (it == found.end()) continue;
    // mm_token_type_ids: 0 text, 1 image, 2 video, 3 audio
    // (ProcessorMixin.create_mm_token_type_ids).
    std::vector<std::vector<long long>> v =
        rowsOf(it->second, key, what, 0, std::string(key) == "attention_mask" ? 1 : 3);
    if (v.size() != rows || v.front().size() != n)
      fail(what + ": \"" + key + "\" has shape " + shapeText(it->second.shape) +
           ", \"input_ids\" " + shapeText(ids->second.shape));
    (std::string(key) == "attention_mask" ? mask : types) = std::move(v);
  }
  TokenRows out(rows);
  for (std::size_t b = 0; b < rows; ++b) {
    TokenInput& in = out[b];
    const std::string row = rows > 1 ? " row " + std::to_string(b) : std::string();
    in.kept.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      in.kept[i] = mask[b][i] != 0;
      if (mask[b][i] == 0) {
        ++in.paddingDropped;
        continue;
      }
      in.inputIds.push_back(all[b][i]);
      if (!types.empty()) in.mmTokenTypes.push_back(static_cast<int>(types[b][i]));
    }
    if (in.inputIds.empty()) fail(what + ":" + row + " no tokens (input_ids empty or all padding)");
    checkTokensFit(in.inputIds.size(), what + ":" + row);
  }
  TokenInput in;  // the batch's grids, given to every row
  if (auto it = found.find("image_grid_thw"); it != found.end())
    in.imageGrids = grids(it->second, "image_grid_thw", what);
  if (auto it = found.find("video_grid_thw"); it != found.end())
    in.videoGrids = grids(it->second, "video_grid_thw", what);
  for (const std::string key : {"second_per_grid_ts", "video_second_per_grid"}) {
    const auto it = found.find(key);
    if (it == found.end()) continue;
    if (!in.secondsPerGrid.empty())
      fail(what + ": both \"second_per_grid_ts\" and \"video_second_per_grid\"; keep one");
    const Tensor& t = it->second;
    if (t.shape.size() > 2 || (t.shape.size() == 2 && t.shape[0] != 1))
      fail(what + ": \"" + key + "\" must be [K] (got shape " + shapeText(t.shape) + ")");
    for (double v : t.values) {
      if (!(v >= 0 && v <= 1e6))
        fail(what + ": \"" + key + "\" must hold seconds in [0, 1e6] (got " + TokensJson(v).dump() +
             ")");
      in.secondsPerGrid.push_back(v);
    }
    if (in.secondsPerGrid.size() != in.videoGrids.size())
      fail(what + ": \"" + key + "\" has " + std::to_string(in.secondsPerGrid.size()) +
           " entries, \"video_grid_thw\" " + std::to_string(in.videoGrids.size()) + " videos");
  }
  // Mel frames per audio: feature_attention_mask.sum(-1) ([K, F] of 0/1, as the omni models
  // compute audio_feature_lengths), or audio_feature_lengths itself ([K]).
  if (auto it = found.find("feature_attention_mask"); it != found.end()) {
    const Tensor& t = it->second;
    if (!t.values.empty()) {
      if (t.shape.size() != 2)
        fail(what + ": \"feature_attention_mask\" must be [K, F] (got shape " + shapeText(t.shape) +
             ")");
      for (std::size_t k = 0; k < t.shape[0]; ++k) {
        long long sum = 0;
        for (std::size_t f = 0; f < t.shape[1]; ++f) {
          const double v = t.values[k * t.shape[1] + f];
          if (v != 0.0 && v != 1.0)
            fail(what + ": \"feature_attention_mask\" must hold 0 and 1 (got " +
                 TokensJson(v).dump() + ")");
          sum += v != 0.0;
        }
        in.audioFeatureLengths.push_back(sum);
      }
    }
  }
  if (auto it = found.find("audio_feature_lengths"); it != found.end()) {
    if (!in.audioFeatureLengths.empty())
      fail(what + ": both \"feature_attention_mask\" and \"audio_feature_lengths\"; keep one");
    const Tensor& t = it->second;
    if (t.shape.size() != 1)
      fail(what + ": \"audio_feature_lengths\" must be [K] (got shape " + shapeText(t.shape) + ")");
    for (double v : t.values) {
      if (!(v >= 1 && v <= 1e9) || v != std::floor(v))
        fail(what +
             ": \"audio_feature_lengths\" must hold whole mel frame counts in "
             "1..1000000000 (got " +
             TokensJson(v).dump() + ")");
      in.audioFeatureLengths.push_back(static_cast<long long>(v));
    }
  }
  for (TokenInput& row : out) {
    row.imageGrids = in.imageGrids;
    row.videoGrids = in.videoGrids;
    row.secondsPerGrid = in.secondsPerGrid;
    row.audioFeatureLengths = in.audioFeatureLengths;
  }
  return out;
}

TokenInput single(TokenRows rows, const std::string& what) {
  if (rows.size() != 1)
    fail(what + ": \"input_ids\" holds a batch of " + std::to_string(rows.size()) +
         " sequences; pick one with --row 0.." + std::to_string(rows.size() - 1) +
         " (or save one: {k: v[:1].tolist() ...})");
  return std::move(rows.front());
}

}  // namespace

std::string gridThwText(const std::array<long long, 3>& g) {
  std::string s = "[";
  for (std::size_t a = 0; a < 3; ++a) {
    if (a) s += ", ";
    s += std::to_string(g[a]);
  }
  s += ']';
  return s;
}

TokenRows tokenRowsFromJson(std::string_view text, const std::string& what) {
  Reader r(what);
  nlohmann::json::sax_parse(text.begin(), text.end(), &r);
  return assemble(r.found, what);
}

TokenInput tokensFromJson(std::string_view text, const std::string& what) {
  return single(tokenRowsFromJson(text, what), what);
}

TokenRows readTokenRows(const std::string& path) {
  const std::string what = "tokens file \"" + path + "\"";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    fail(what + " does not exist or is not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) fail(what + " cannot be read");
  if (size > kMaxTokensFileBytes)
    fail(what +
         " is larger than 2 GiB (save it without pixel_values: ropescope does not read "
         "them)");
  if (std::filesystem::path(path).extension() == ".npz") {
    std::map<std::string, Tensor> found;
    for (auto& [key, a] : readNpzNumbers(path, "tokens file")) {
      if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) continue;
      Tensor t;
      t.shape = a.shape;
      t.values = std::move(a.data);
      t.integral = a.dtype.find('f') == std::string::npos;
      if (t.shape.empty() && t.values.size() != 1) fail(what + ": \"" + key + "\" is malformed");
      found[key] = std::move(t);
    }
    return assemble(found, what);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(what + " cannot be opened");
  Reader r(what);
  nlohmann::json::sax_parse(in, &r);
  return assemble(r.found, what);
}

TokenInput readTokensFile(const std::string& path) {
  return single(readTokenRows(path), "tokens file \"" + path + "\"");
}

TokenRows splitBatchRows(TokenRows rows, const ModelConfig& model, const TokenReading& reading) {
  if (rows.empty()) return rows;
  const TokenInput all = rows.front();  // every row holds the batch's grids
  std::size_t image = 0, video = 0, audio = 0;
  const auto from = [](const auto& list, std::size_t at, std::size_t count) {
    using List = std::decay_t<decltype(list)>;
    if (at >= list.size()) return List{};
    const std::size_t end = count >= list.size() - at ? list.size() : at + count;
    return List(list.begin() + static_cast<std::ptrdiff_t>(at),
                list.begin() + static_cast<std::ptrdiff_t>(end));
  };
  const std::size_t all_ = static_cast<std::size_t>(-1);
  for (std::size_t b = 0; b < rows.size(); ++b) {
    TokenInput& row = rows[b];
    const std::string where = rows.size() > 1 ? "tokens: row " + std::to_string(b) + ": " : "";
    row.imageGrids = from(all.imageGrids, image, all_);
    row.videoGrids = from(all.videoGrids, video, all_);
    row.secondsPerGrid = from(all.secondsPerGrid, video, all_);
    row.audioFeatureLengths = from(all.audioFeatureLengths, audio, all_);
    GridUse used;
    try {
      (void)layoutFromTokens(row, model, &used, {reading.rules, nullptr});
    } catch (const InputError& e) {
      if (rows.size() == 1) throw;
      std::string m = e.what();
      if (m.rfind("tokens: ", 0) == 0) m.erase(0, 8);
      fail(where + m);
    }
    row.imageGrids = from(all.imageGrids, image, used.images);
    row.videoGrids = from(all.videoGrids, video, used.videos);
    row.secondsPerGrid = from(all.secondsPerGrid, video, used.videos);
    row.audioFeatureLengths = from(all.audioFeatureLengths, audio, used.audios);
    image += used.images;
    video += used.videos;
    audio += used.audios;
  }
  const auto left = [&](std::size_t taken, std::size_t total, const char* key, const char* what) {
    if (taken != total)
      fail("tokens: " + std::string(key) + " has " + entries(total) + ", input_ids hold " +
           countOf(static_cast<long long>(taken), what) +
           (rows.size() > 1 ? " in all " + std::to_string(rows.size()) + " rows" : std::string()));
  };
  left(image, all.imageGrids.size(), "image_grid_thw", "image");
  left(video, all.videoGrids.size(), "video_grid_thw", "video");
  if (!all.audioFeatureLengths.empty())
    left(audio, all.audioFeatureLengths.size(), "feature_attention_mask", "audio");
  return rows;
}

namespace {

struct Visual {
  std::size_t start = 0;
  std::size_t tokens = 0;  // its tokens in input_ids (the grid's count unless runsTakeGrids)
  Segment seg;
  int frame = -1;  // per-frame families: the frame of its video; else -1
};

// Whether the family's get_rope_index gives each run its grid's positions
// (ReleaseRules::runsTakeGrids) at the rule set read with, and the release messages name: that
// set's, or "" where no set is named and every release of the family agrees.
struct TokenRunRule {
  bool takeGrids = false;
  std::string release;
};

TokenRunRule tokenRunRule(const ModelFamily& family, std::optional<std::size_t> rules) {
  if (rules) {
    try {
      const ResolvedRules r = resolveRules(family.name(), *rules);
      return {r.rules.runsTakeGrids, r.release};
    } catch (const InputError&) {
      // The family is not in that release: the design says so; read as the releases agree.
    }
  }
  const auto& classes = releaseClasses(family.name());
  const bool every = std::all_of(classes.begin(), classes.end(),
                                 [](const ReleaseClass& c) { return c.rules.runsTakeGrids; });
  const bool none = std::none_of(classes.begin(), classes.end(),
                                 [](const ReleaseClass& c) { return c.rules.runsTakeGrids; });
  if (every || none) return {every, ""};
  const ResolvedRules r = resolveRules(family.name(), 0);
  return {r.rules.runsTakeGrids, r.release};
}

// A run of image or video tokens whose length is not its grid's: "the image run at token 3 has
// 10 tokens but image_grid_thw[0] = [1, 4, 4] gives 4".
std::string runMismatchText(const Visual& v, const std::array<long long, 3>& grid,
                            std::size_t item) {
  const bool image = v.seg.kind == SegmentKind::Image;
  const std::string key = image ? "image_grid_thw" : "video_grid_thw";
  return std::string("the ") + (image ? "image" : "video frame") + " run at token " +
         std::to_string(v.start) + " has " + countOf(static_cast<long long>(v.tokens), "token") +
         " but " + key + "[" + std::to_string(item) + "] = " + gridThwText(grid) + " gives " +
         std::to_string(v.seg.tokenCount()) + (image ? "" : " per frame");
}

// mm_token_type_ids[i] against input_ids[i]: an image or video placeholder typed as text or as
// the other modality, and audio in a family without audio, are refused (a file mixed from two
// outputs).
void checkTokenType(const TokenInput& in, std::size_t i, const ModelFamily& family,
                    const SpecialTokenIds& tk) {
  static const char* kNames[] = {"text", "image", "video", "audio"};
  const int type = in.mmTokenTypes[i];
  const std::int64_t id = in.inputIds[i];
  const bool framesAsImages = family.videoTokens() == VideoTokens::FramesAsImages;
  int want = id == tk.imageToken ? 1 : id == tk.videoToken ? 2 : 0;
  if (framesAsImages && want == 1 && type == 2) want = 2;  // GLM: a frame's image tokens
  if (type == 3)
    fail("tokens: mm_token_type_ids[" + std::to_string(i) + "] is 3 (audio), but " +
         family.title() + " takes no audio (an omni family does)");
  // Types decide the modality (a checkpoint may use other ids than its config's): refused is a
  // placeholder of one modality typed as another.
  if (type != want && want != 0)
    fail("tokens: mm_token_type_ids[" + std::to_string(i) + "] is " + std::to_string(type) + " (" +
         kNames[type] + ") but input_ids[" + std::to_string(i) + "] = " + std::to_string(id) +
         " is " +
         (want == 0 ? std::string("no image or video token")
                    : "the " + std::string(kNames[want]) + " token") +
         " of " + family.title() + ": the two come from different outputs");
}

}  // namespace

Layout layoutFromTokens(const TokenInput& in, const ModelConfig& model, GridUse* used,
                        const TokenReading& reading) {
  if (model.family.empty()) {  // a text-only model: every token is text, one position each
    if (in.inputIds.empty()) fail("tokens: no tokens");
    if (!in.imageGrids.empty() || !in.videoGrids.empty() || !in.audioFeatureLengths.empty())
      fail("tokens: " + model.title +
           " is a text-only model, but the processor output has image, video or audio grids");
    for (std::size_t i = 0; i < in.mmTokenTypes.size(); ++i)
      if (in.mmTokenTypes[i] != 0)
        fail("tokens: mm_token_type_ids[" + std::to_string(i) + "] is " +
             std::to_string(in.mmTokenTypes[i]) + ", but " + model.title +
             " is a text-only model (text tokens only)");
    if (used) *used = GridUse{};
    // Each run of the model's picture token (Gemma 3/4, Llama 4 name one) is a picture of one
    // position per token: a square grid where the run is a square (Gemma 3's 256 = 16 x 16),
    // else one row. Everything else is text.
    const std::int64_t picture = model.tokens.imageToken;
    const auto isPicture = [&](std::size_t i) { return picture >= 0 && in.inputIds[i] == picture; };
    Layout layout;
    for (std::size_t i = 0, n = in.inputIds.size(); i < n;) {
      std::size_t j = i;
      while (j < n && isPicture(j) == isPicture(i)) ++j;
      const int len = static_cast<int>(j - i);
      if (isPicture(i)) {
        const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(len))));
        layout.segments.push_back(side * side == len ? Segment::image(side, side)
                                                     : Segment::image(1, len));
      } else {
        layout.segments.push_back(Segment::text(len));
      }
      i = j;
    }
    return layout;
  }
  const ModelFamily& family = findFamily(model.family);
  if (family.omni()) return omniLayoutFromTokens(in, model, used);
  const SpecialTokenIds& tk = model.tokens;
  const VideoTokens form = family.videoTokens();
  const long long m = model.spatialMerge;
  const long long tm = family.videoTemporalMerge();
  const std::size_t n = in.inputIds.size();
  if (n == 0) fail("tokens: no tokens");
  if (!in.mmTokenTypes.empty() && in.mmTokenTypes.size() != n)
    fail("tokens: mm_token_type_ids and input_ids differ in length");
  if (!in.secondsPerGrid.empty() && in.secondsPerGrid.size() != in.videoGrids.size())
    fail("tokens: second_per_grid_ts and video_grid_thw differ in length");

  // Modality of every token: mm_token_type_ids when given, else the model's token ids. GLM
  // writes video frames as image tokens inside <|begin_of_video|> ... <|end_of_video|>.
  std::vector<int> mod(n, 0);
  bool inVideo = false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t id = in.inputIds[i];
    if (!in.mmTokenTypes.empty()) checkTokenType(in, i, family, tk);
    int t = !in.mmTokenTypes.empty() ? in.mmTokenTypes[i]
            : id == tk.imageToken    ? 1
            : id == tk.videoToken    ? 2
                                     : 0;
    if (form == VideoTokens::FramesAsImages) {
      if (id == tk.videoStart) inVideo = true;
      if (id == tk.videoEnd) inVideo = false;
      if (t == 1 && inVideo) t = 2;
    }
    mod[i] = t;
  }

  const auto llmSide = [&](long long side, const char* axis, const std::string& block) {
    if (side % m != 0)
      fail("tokens: " + block + ": grid " + axis + " " + std::to_string(side) +
           " is not a multiple of the spatial merge " + std::to_string(m));
    return static_cast<int>(side / m);
  };

  // GLM: every run is one image or one frame, its positions its grid's (ReleaseRules).
  const TokenRunRule runRule = tokenRunRule(family, reading.rules);
  std::vector<Visual> visuals;
  std::string firstMismatch;
  std::size_t mismatches = 0;
  std::size_t nextImage = 0, nextVideo = 0;
  long long nextFrame = 0;  // per-frame families: frames of the current video taken so far
  for (std::size_t i = 0; i < n;) {
    if (mod[i] == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && mod[j] == mod[i]) ++j;
    const bool image = mod[i] == 1;
    for (std::size_t pos = i; pos < j;) {
      const auto& list = image ? in.imageGrids : in.videoGrids;
      const std::size_t k = image ? nextImage : nextVideo;
      const char* key = image ? "image_grid_thw" : "video_grid_thw";
      if (k >= list.size())
        fail("tokens: input_ids hold " + std::to_string(j - pos) + " more " +
             (image ? "image" : "video") + " tokens (from token " + std::to_string(pos) +
             ") than " + key + " describes (" + entries(list.size()) + ")");
      const auto& g = list[k];
      const std::string block = std::string(image ? "image " : "video ") + std::to_string(k) +
                                " (" + key + "[" + std::to_string(k) + "] = " + gridThwText(g) +
                                ")";
      const int rows = llmSide(g[1], "h", block), cols = llmSide(g[2], "w", block);
      Visual v;
      v.start = pos;
      const std::size_t item = k;
      long long expected = 0;
      std::string formula;
      if (image) {
        if (g[0] != 1)
          fail("tokens: " + block + ": an image of " + std::to_string(g[0]) +
               " temporal patches (ropescope takes images of 1)");
        v.seg = Segment::image(rows, cols);
        expected = static_cast<long long>(rows) * cols;
        ++nextImage;
      } else if (form == VideoTokens::OneBlock) {
        if (g[0] % tm != 0)
          fail("tokens: " + block + ": " + std::to_string(g[0]) +
               " frames do not pair into the temporal merge " + std::to_string(tm));
        const long long frames = g[0] / tm;
        checkTokensFit(static_cast<std::uint64_t>(frames * rows * cols), "tokens: " + block);
        v.seg = Segment::video(static_cast<int>(frames), rows, cols);
        expected = frames * rows * cols;
        ++nextVideo;
      } else {  // one block per frame
        v.seg = Segment::video(1, rows, cols);
        v.seg.videoItem = static_cast<int>(k);
        v.frame = static_cast<int>(nextFrame);
        expected = static_cast<long long>(rows) * cols;
        if (++nextFrame == g[0]) {
          ++nextVideo;
          nextFrame = 0;
        }
      }
      if (!image && !in.secondsPerGrid.empty()) v.seg.secondsPerGrid = in.secondsPerGrid[k];
      formula = std::to_string(g[0]) + "*" + std::to_string(g[1]) + "*" + std::to_string(g[2]) +
                "/" + std::to_string(m * m);
      if (!image && form == VideoTokens::OneBlock && tm != 1) formula += "/" + std::to_string(tm);
      if (!image && form != VideoTokens::OneBlock)
        formula = "frame " + std::to_string(v.frame) + ": " + std::to_string(g[1]) + "*" +
                  std::to_string(g[2]) + "/" + std::to_string(m * m);
      if (runRule.takeGrids) {  // the whole run is this block, whatever its length
        v.tokens = j - pos;
        if (static_cast<long long>(v.tokens) != expected && mismatches++ == 0)
          firstMismatch = runMismatchText(v, g, item);
        visuals.push_back(v);
        pos = j;
        continue;
      }
      v.tokens = static_cast<std::size_t>(expected);
      if (static_cast<long long>(j - pos) < expected)
        fail("tokens: " + block + ": " + std::to_string(expected) + " tokens expected (" + formula +
             "), input_ids hold " + std::to_string(j - pos) + " (tokens " + std::to_string(pos) +
             ".." + std::to_string(j - 1) + ")");
      visuals.push_back(v);
      pos += static_cast<std::size_t>(expected);
    }
    i = j;
  }
  if (used) *used = {nextImage, nextVideo, 0};
  if (mismatches > 0) {
    // transformers places the grids' positions over the tokens in order: the totals must agree.
    std::size_t gridTotal = n;
    for (const Visual& v : visuals) gridTotal = gridTotal - v.tokens + v.seg.tokenCount();
    std::string what = firstMismatch;
    if (mismatches > 1)
      what += " (and " + countOf(static_cast<long long>(mismatches - 1), "more run") + ")";
    const std::string who =
        "transformers" + (runRule.release.empty() ? std::string() : " " + runRule.release);
    const std::string when =
        runRule.release.empty() ? " at every release of " + family.title() : std::string();
    if (gridTotal != n)
      fail(who + " raises on these tokens" + when + ": " + what + ", and the grids give " +
           countOf(static_cast<long long>(gridTotal), "position") + " for " +
           countOf(static_cast<long long>(n), "token") +
           " (get_rope_index lays them over the tokens in order: a shape mismatch)");
    if (reading.warnings)
      reading.warnings->push_back(what + "; ids follow the grids as " + who + " does" + when);
  }
  if (nextImage != in.imageGrids.size() && !used)
    fail("tokens: image_grid_thw has " + entries(in.imageGrids.size()) + ", input_ids hold " +
         countOf(static_cast<long long>(nextImage), "image"));
  if (nextFrame != 0)
    fail("tokens: video " + std::to_string(nextVideo) + " (video_grid_thw[" +
         std::to_string(nextVideo) + "] = " + gridThwText(in.videoGrids[nextVideo]) +
         "): " + std::to_string(in.videoGrids[nextVideo][0]) + " frames expected, input_ids hold " +
         std::to_string(nextFrame));
  if (nextVideo != in.videoGrids.size() && !used)
    fail("tokens: video_grid_thw has " + entries(in.videoGrids.size()) + ", input_ids hold " +
         countOf(static_cast<long long>(nextVideo), "video"));

  // Roles of the text tokens.
  std::set<std::int64_t> special;
  for (std::int64_t id :
       {tk.visionStart, tk.visionEnd, tk.imageStart, tk.imageEnd, tk.videoStart, tk.videoEnd})
    if (id >= 0) special.insert(id);
  std::vector<TextRole> role(n, TextRole::Plain);
  for (std::size_t i = 0; i < n; ++i)
    if (mod[i] == 0 && special.count(in.inputIds[i])) role[i] = TextRole::Special;
  const auto plainText = [&](std::size_t i) { return mod[i] == 0 && role[i] == TextRole::Plain; };
  if (form == VideoTokens::FrameBlocks) {
    // Qwen3-VL / Qwen3.5: "<t seconds>" before each frame's <|vision_start|>. Between frames it
    // is the text between them; before the first frame, as many tokens as the second frame's
    // timestamp takes (digits are single tokens, so "<0.5 seconds>" and "<1.5 seconds>" have
    // one length); a one-frame video's timestamp stays plain text.
    std::size_t stampLength = 0;
    for (std::size_t v = 0; v < visuals.size(); ++v) {
      if (visuals[v].frame <= 0) continue;
      const std::size_t from = visuals[v - 1].start + visuals[v - 1].tokens;
      std::size_t count = 0;
      for (std::size_t i = from; i < visuals[v].start; ++i)
        if (plainText(i)) {
          role[i] = TextRole::Timestamp;
          ++count;
        }
      if (visuals[v].frame == 1) stampLength = count;
      if (visuals[v].frame == 1) {
        std::size_t i = visuals[v - 1].start;
        while (i > 0 && mod[i - 1] == 0 && role[i - 1] == TextRole::Special) --i;
        for (std::size_t left = stampLength; left > 0 && i > 0 && plainText(i - 1); --left)
          role[--i] = TextRole::Timestamp;
      }
    }
  } else if (form == VideoTokens::FramesAsImages) {
    // GLM: "<|end_of_image|>{seconds}" after each frame, up to the next special token.
    for (const Visual& v : visuals) {
      if (v.seg.kind != SegmentKind::Video) continue;
      std::size_t i = v.start + v.tokens;
      while (i < n && mod[i] == 0 && role[i] == TextRole::Special) ++i;
      for (; i < n && plainText(i); ++i) role[i] = TextRole::Timestamp;
    }
  }

  Layout layout;
  std::size_t vi = 0;
  for (std::size_t i = 0; i < n;) {
    if (vi < visuals.size() && visuals[vi].start == i) {
      layout.segments.push_back(visuals[vi].seg);  // the grid's block over the run's tokens
      i += visuals[vi].tokens;
      ++vi;
      continue;
    }
    const TextRole r = role[i];
    std::size_t j = i;
    while (j < n && (vi >= visuals.size() || j < visuals[vi].start) && role[j] == r) ++j;
    layout.segments.push_back(Segment::text(static_cast<int>(j - i), r));
    i = j;
  }
  try {
    validateLayout(layout);
  } catch (const InputError& e) {
    fail(std::string("tokens: ") + e.what());
  }
  return layout;
}

}  // namespace ropescope
