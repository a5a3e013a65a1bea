// Parser for the golden reference files in tests/golden/data (ids_reference.txt,
// circle_vectors.txt, decay_bound.txt, decay_reference.txt): turns their printed tables into plain
// structs for the tests.
#pragma once

#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#ifndef ROPESCOPE_GOLDEN_DIR
#error "ROPESCOPE_GOLDEN_DIR must name the directory holding the golden .txt files"
#endif

namespace golden {

// A number as printed in a golden file. The files round their values, so every number carries the
// half unit of its last printed digit: that is the most a correct value can differ from it.
struct Num {
  double value = 0.0;
  double halfUnit = 0.0;  // 0 for a number printed as an integer
  bool integer = false;   // printed without '.', 'e' or 'E'
  std::string text;
};

inline Num parseNum(std::string_view token) {
  std::string s(token);
  if (s.empty()) throw std::runtime_error("golden: empty number");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) throw std::runtime_error("golden: not a number: '" + s + "'");
  Num n;
  n.value = v;
  n.text = s;
  const auto epos = s.find_first_of("eE");
  const std::string mantissa = s.substr(0, epos);
  const auto dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  const int exponent = epos == std::string::npos ? 0 : std::atoi(s.c_str() + epos + 1);
  n.integer = dot == std::string::npos && epos == std::string::npos;
  n.halfUnit = n.integer ? 0.0 : 0.5 * std::pow(10.0, exponent - decimals);
  return n;
}

// Same, for a number printed with `digits` significant digits and trailing zeros stripped
// (C's %g): "0.1" from %g means 0.100000, so the half unit follows the digit count, not the text.
inline Num parseSignificant(std::string_view token, int digits) {
  Num n = parseNum(token);
  if (n.value != 0.0)
    n.halfUnit = 0.5 * std::pow(10.0, std::floor(std::log10(std::fabs(n.value))) - (digits - 1));
  n.integer = false;
  return n;
}

// Same, for a number rounded to `decimals` decimals with trailing zeros stripped ("4.673" was
// 4.6730): integers stay exact, anything else gets the half unit of the rounding.
inline Num parseRounded(std::string_view token, int decimals) {
  Num n = parseNum(token);
  if (!n.integer) n.halfUnit = 0.5 * std::pow(10.0, -decimals);
  return n;
}

inline std::vector<std::string> splitWs(std::string_view line) {
  std::vector<std::string> out;
  std::istringstream in{std::string(line)};
  std::string tok;
  while (in >> tok) out.push_back(tok);
  return out;
}

inline std::vector<Num> parseNums(std::string_view line) {
  std::vector<Num> out;
  for (const auto& t : splitWs(line)) out.push_back(parseNum(t));
  return out;
}

inline std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

inline bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// Integers inside the first [..] of `s`, e.g. "MRoPE [16,24,24] chunked" -> {16,24,24}.
inline std::vector<int> bracketInts(const std::string& s) {
  std::smatch m;
  std::vector<int> out;
  if (!std::regex_search(s, m, std::regex(R"(\[([0-9, ]+)\])"))) return out;
  std::string body = m[1];
  std::istringstream in(body);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::stoi(item));
  return out;
}

struct Lines {
  std::string path;
  std::vector<std::string> text;
  std::string where(std::size_t i) const { return path + ":" + std::to_string(i + 1); }
};

// ROPESCOPE_GOLDEN_DIR in the environment overrides the built-in directory: used to run the
// suite against regenerated or deliberately perturbed reference files.
inline Lines readGolden(const std::string& name) {
  Lines l;
  const char* env = std::getenv("ROPESCOPE_GOLDEN_DIR");
  l.path = std::string(env && *env ? env : ROPESCOPE_GOLDEN_DIR) + "/" + name;
  std::ifstream in(l.path);
  if (!in) throw std::runtime_error("golden: cannot open " + l.path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    l.text.push_back(line);
  }
  if (l.text.empty()) throw std::runtime_error("golden: empty file " + l.path);
  return l;
}

// ---------------------------------------------------------------------------------------------
// ids_reference.txt

struct IdsVariant {
  std::string label;  // text between "-- " and "rope_delta="
  Num ropeDelta;
  Num nextDecodeId;
  std::array<std::vector<Num>, 3> rows;  // t, h, w
  std::string where;
};

struct IdsCase {
  std::string name;   // "A", "A2", ...
  std::string title;  // the rest of the CASE line
  int declaredTokens = 0;
  std::vector<std::string> tokens;
  std::vector<IdsVariant> variants;

  const IdsVariant* find(const std::string& label) const {
    for (const auto& v : variants)
      if (v.label == label) return &v;
    return nullptr;
  }
};

struct ChannelMapBlock {
  std::string title;
  std::string axes;                  // "ttthh..." one char per pair ('0' = NoPE)
  std::map<char, int> listedCounts;  // from the "h (24 pairs): ..." lines
};

struct MhropeMap {
  std::vector<int> sections;  // KV heads per axis
  int kvHeads = 0;
  std::string headAxes;  // one char per KV head, '-' = NoPE
};

struct InvFreqSample {
  double base = 0.0;
  std::vector<std::pair<int, Num>> pairs;  // (p, inv_freq[p])
};

struct IdsReference {
  std::vector<IdsCase> cases;
  std::vector<ChannelMapBlock> maps;
  std::vector<MhropeMap> mhrope;
  std::vector<InvFreqSample> invFreq;
  int invFreqRotDim = 0;

  const IdsCase* findCase(const std::string& name) const {
    for (const auto& c : cases)
      if (c.name == name) return &c;
    return nullptr;
  }
  const ChannelMapBlock* findMap(const std::string& titlePrefix) const {
    for (const auto& m : maps)
      if (startsWith(m.title, titlePrefix)) return &m;
    return nullptr;
  }
};

inline IdsReference parseIdsReference(const Lines& f) {
  IdsReference ref;
  const std::regex caseRe(R"(^CASE (\w+): (.*)\((\d+) tokens\)\s*$)");
  const std::regex variantRe(R"(^-- (.*\S)\s+rope_delta=(\S+)\s+\(next decode id = (\S+)\)\s*$)");
  const std::regex rowRe(R"(^\s+([thw]): (.*)$)");
  const std::regex countRe(R"(^\s+(\S) \((\d+) pairs\): .*$)");
  const std::regex invRe(R"(^inv_freq samples \(rot_dim (\d+)\):\s*$)");
  const std::regex baseRe(R"(^\s+base (\S+): (.*)$)");
  const std::regex headRe(R"(^MHRoPE (\[[0-9,]+\]) over (\d+) KV heads)");
  bool inMaps = false;
  bool inInv = false;
  IdsCase* cur = nullptr;
  IdsVariant* var = nullptr;
  ChannelMapBlock* block = nullptr;
  std::vector<int> mhSections;
  int mhKv = 0;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    const std::string& line = f.text[i];
    std::smatch m;
    if (line.empty() || line[0] == '#' || startsWith(line, "=====")) continue;
    if (startsWith(line, "CHANNEL (pair) -> AXIS MAPS")) {
      inMaps = true;
      cur = nullptr;
      var = nullptr;
      continue;
    }
    if (!inMaps) {
      if (std::regex_match(line, m, caseRe)) {
        ref.cases.push_back({});
        cur = &ref.cases.back();
        cur->name = m[1];
        cur->title = trim(std::string(m[2]));
        cur->declaredTokens = std::stoi(m[3]);
        var = nullptr;
      } else if (cur && startsWith(line, "tokens: ")) {
        cur->tokens = splitWs(line.substr(8));
      } else if (cur && std::regex_match(line, m, variantRe)) {
        cur->variants.push_back({});
        var = &cur->variants.back();
        var->label = m[1];
        var->ropeDelta = parseRounded(std::string(m[2]), 4);
        var->nextDecodeId = parseRounded(std::string(m[3]), 4);
        var->where = f.where(i);
      } else if (var && std::regex_match(line, m, rowRe)) {
        const std::string ax = m[1];
        const int a = ax == "t" ? 0 : ax == "h" ? 1 : 2;
        if (!var->rows[a].empty())
          throw std::runtime_error("golden: repeated row at " + f.where(i));
        for (const auto& tok : splitWs(std::string(m[2])))
          var->rows[a].push_back(parseRounded(tok, 4));
      } else {
        throw std::runtime_error("golden: unrecognised line " + f.where(i) + ": " + line);
      }
      continue;
    }
    // Channel-map part.
    if (std::regex_match(line, m, invRe)) {
      inInv = true;
      ref.invFreqRotDim = std::stoi(m[1]);
      continue;
    }
    if (inInv && std::regex_match(line, m, baseRe)) {
      InvFreqSample s;
      s.base = std::stod(m[1]);
      for (const auto& tok : splitWs(std::string(m[2]))) {
        const auto eq = tok.find('=');
        if (tok.size() < 3 || tok[0] != 'p' || eq == std::string::npos)
          throw std::runtime_error("golden: bad inv_freq sample at " + f.where(i));
        // Printed with %g: 6 significant digits.
        s.pairs.emplace_back(std::stoi(tok.substr(1, eq - 1)),
                             parseSignificant(tok.substr(eq + 1), 6));
      }
      ref.invFreq.push_back(s);
      continue;
    }
    const std::string t = trim(line);
    if (startsWith(t, "pair p rotates")) continue;  // convention note, no data
    if (line[0] != ' ') {
      // A block title.
      ref.maps.push_back({});
      block = &ref.maps.back();
      block->title = t;
      if (std::regex_search(line, m, headRe)) {
        mhSections = bracketInts(m[1]);
        mhKv = std::stoi(m[2]);
      }
      continue;
    }
    if (startsWith(t, "string: ") && block) {
      block->axes = t.substr(8);
    } else if (std::regex_match(line, m, countRe) && block) {
      block->listedCounts[std::string(m[1])[0]] = std::stoi(m[2]);
    } else if (startsWith(t, "KV head -> axis: ")) {
      MhropeMap mh;
      mh.sections = mhSections;
      mh.kvHeads = mhKv;
      for (const auto& tok : splitWs(t.substr(17))) mh.headAxes += tok.substr(tok.find(':') + 1);
      ref.mhrope.push_back(mh);
    } else if (std::regex_search(t, m, headRe) && t.find(" -> ") != std::string::npos) {
      MhropeMap mh;
      mh.sections = bracketInts(m[1]);
      mh.kvHeads = std::stoi(m[2]);
      std::string rest = t.substr(t.find(" -> ") + 4);
      rest = rest.substr(0, rest.find('('));
      for (const auto& tok : splitWs(rest)) mh.headAxes += tok;
      ref.mhrope.push_back(mh);
    } else if (startsWith(t, "e.g. ")) {
      // Query-head illustration / convention note: no data the API takes.
    } else {
      throw std::runtime_error("golden: unrecognised line " + f.where(i) + ": " + line);
    }
  }
  return ref;
}

inline const IdsReference& idsReference() {
  static const IdsReference ref = parseIdsReference(readGolden("ids_reference.txt"));
  return ref;
}

// ---------------------------------------------------------------------------------------------
// circle_vectors.txt

struct IdRow {
  int index = 0;
  std::string kind;  // "text" / "image"
  std::array<Num, 3> thw;
};

struct IdSet {
  bool present = false;
  Num ropeDelta;
  std::vector<IdRow> rows;
};

struct CircleSequence {
  std::string spec;
  double alpha = 0, radius = 0, dff = 0;
  bool moveToOrigin = true;
  IdSet circle, mrope;
};

struct OffsetRow {
  int k = 0, h = 0, w = 0;
  std::array<Num, 3> thw;
  Num sa, ga, theta;
};

struct OffsetBlock {
  int rows = 0, cols = 0;
  double alpha = 0, radius = 0, dff = 0;
  std::string method;
  std::vector<OffsetRow> tokens;
  std::string where;
};

struct AngleSample {
  std::array<double, 3> delta{};
  std::vector<std::pair<int, Num>> pairs;  // (j, angle)
};

struct PtdLine {
  std::string label;
  Num value;
};

struct SplitRow {
  int before = 0, after = 0;
  Num hard, spatial2d, mrope3d, circle;
};

struct CircleVectors {
  std::vector<CircleSequence> sequences;
  std::vector<OffsetBlock> offsets;
  std::vector<AngleSample> angles;
  std::vector<PtdLine> ptd;
  std::vector<std::pair<int, Num>> spatialScan;  // (a, PTD)
  std::vector<SplitRow> splits;
  std::vector<std::array<Num, 3>> fig1d;  // printed (w, h, t)
  bool hasFig1dPtd = false;
  Num fig1dPtd;

  const CircleSequence* findSequence(const std::string& spec) const {
    for (const auto& s : sequences)
      if (s.spec == spec) return &s;
    return nullptr;
  }
  const PtdLine* findPtd(const std::string& labelPrefix) const {
    for (const auto& p : ptd)
      if (startsWith(p.label, labelPrefix)) return &p;
    return nullptr;
  }
};

inline CircleVectors parseCircleVectors(const Lines& f) {
  CircleVectors cv;
  const std::regex seqRe(
      R"(^sequence (\S+)\s+alpha=(\S+) radius=(\S+) move_to_origin=(\w+) dff_rate=(\S+) fp32=(\w+)\s*$)");
  const std::regex setRe(R"(^\s+\[(circle|mrope)\]\s+rope_delta = (\S+)\s*$)");
  const std::regex idRe(R"(^\s+(\d+) (text|image)\s+\(t,h,w\) = \((\S+), (\S+), (\S+)\)\s*$)");
  const std::regex blockRe(
      R"(^\s+(\d+)x(\d+) \(H x W\) alpha=(\S+) R=(\S+) method=(\w+) dff=([0-9.]+):\s*$)");
  const std::regex offRe(
      R"(^\s+k=\s*(\d+) \(h=(\d+),w=(\d+)\) \(t,h,w\)=\((\S+), (\S+), (\S+)\)\s+SA=(\S+) GA=(\S+) theta=(\S+)\s*$)");
  const std::regex angleRe(R"(^\s+\((\S+), (\S+), (\S+)\): (.*)$)");
  const std::regex ptdRe(R"(^\s+(\S.*\S)\s{2,}(-?[0-9.]+)\s+\((?:paper .*|-)\)\s*$)");
  const std::regex scanRe(R"(^\s+a=\s*(\d+)\s+PTD=(\S+)(\s+->.*)?$)");
  const std::regex splitRe(
      R"(^\s+before=(\d+) after=(\d+)\s+hard=(\S+) spatial2d=(\S+) mrope3d=(\S+) circle=(\S+)\s*$)");
  const std::regex fig1dPtdRe(R"(^\s+PTD of that planar grid .* = (\S+) .*$)");
  const std::regex tripleRe(R"(\(([-0-9.]+), ([-0-9.]+), ([-0-9.]+)\))");
  CircleSequence* seq = nullptr;
  IdSet* set = nullptr;
  OffsetBlock* block = nullptr;
  bool inFig1d = false;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    const std::string& line = f.text[i];
    std::smatch m;
    if (line.empty() || line[0] == '#') continue;
    if (std::regex_match(line, m, seqRe)) {
      cv.sequences.push_back({});
      seq = &cv.sequences.back();
      seq->spec = m[1];
      seq->alpha = std::stod(m[2]);
      seq->radius = std::stod(m[3]);
      seq->moveToOrigin = m[4] == "True";
      seq->dff = std::stod(m[5]);
      set = nullptr;
      block = nullptr;
      continue;
    }
    if (seq && std::regex_match(line, m, setRe)) {
      set = m[1] == "circle" ? &seq->circle : &seq->mrope;
      set->present = true;
      set->ropeDelta = parseNum(std::string(m[2]));
      continue;
    }
    if (set && std::regex_match(line, m, idRe)) {
      IdRow r;
      r.index = std::stoi(m[1]);
      r.kind = m[2];
      for (int a = 0; a < 3; ++a) r.thw[a] = parseNum(std::string(m[3 + a]));
      set->rows.push_back(r);
      continue;
    }
    if (std::regex_match(line, m, blockRe)) {
      seq = nullptr;
      set = nullptr;
      cv.offsets.push_back({});
      block = &cv.offsets.back();
      block->rows = std::stoi(m[1]);
      block->cols = std::stoi(m[2]);
      block->alpha = std::stod(m[3]);
      block->radius = std::stod(m[4]);
      block->method = m[5];
      block->dff = std::stod(m[6]);
      block->where = f.where(i);
      continue;
    }
    if (block && std::regex_match(line, m, offRe)) {
      OffsetRow r;
      r.k = std::stoi(m[1]);
      r.h = std::stoi(m[2]);
      r.w = std::stoi(m[3]);
      for (int a = 0; a < 3; ++a) r.thw[a] = parseNum(std::string(m[4 + a]));
      r.sa = parseNum(std::string(m[7]));
      r.ga = parseNum(std::string(m[8]));
      r.theta = parseNum(std::string(m[9]));
      block->tokens.push_back(r);
      continue;
    }
    if (std::regex_match(line, m, angleRe) && line.find("j0=") != std::string::npos) {
      AngleSample s;
      for (int a = 0; a < 3; ++a) s.delta[a] = std::stod(m[1 + a]);
      std::string rest = m[4];
      for (auto tok : splitWs(rest)) {
        if (!tok.empty() && tok.back() == ',') tok.pop_back();
        const auto eq = tok.find('=');
        s.pairs.emplace_back(std::stoi(tok.substr(1, eq - 1)), parseNum(tok.substr(eq + 1)));
      }
      cv.angles.push_back(s);
      continue;
    }
    if (std::regex_match(line, m, scanRe)) {
      cv.spatialScan.emplace_back(std::stoi(m[1]), parseNum(std::string(m[2])));
      continue;
    }
    if (std::regex_match(line, m, splitRe)) {
      SplitRow r;
      r.before = std::stoi(m[1]);
      r.after = std::stoi(m[2]);
      r.hard = parseNum(std::string(m[3]));
      r.spatial2d = parseNum(std::string(m[4]));
      r.mrope3d = parseNum(std::string(m[5]));
      r.circle = parseNum(std::string(m[6]));
      cv.splits.push_back(r);
      continue;
    }
    if (line.find("Fig.1(d) check") != std::string::npos) {
      inFig1d = true;
      continue;
    }
    if (inFig1d && std::regex_match(line, m, fig1dPtdRe)) {
      cv.hasFig1dPtd = true;
      cv.fig1dPtd = parseNum(std::string(m[1]));
      inFig1d = false;
      continue;
    }
    if (inFig1d) {
      for (std::sregex_iterator it(line.begin(), line.end(), tripleRe), end; it != end; ++it)
        cv.fig1d.push_back(
            {parseNum((*it)[1].str()), parseNum((*it)[2].str()), parseNum((*it)[3].str())});
      continue;
    }
    if (std::regex_match(line, m, ptdRe)) {
      cv.ptd.push_back({std::string(m[1]), parseNum(std::string(m[2]))});
      continue;
    }
    // Everything else is prose (headings, captions); the data lines above are all recognised.
  }
  return cv;
}

inline const CircleVectors& circleVectors() {
  static const CircleVectors cv = parseCircleVectors(readGolden("circle_vectors.txt"));
  return cv;
}

// ---------------------------------------------------------------------------------------------
// decay_bound.txt

struct DecayRow {
  std::string label;
  std::vector<Num> values;
};

struct DecayTable {
  std::string base;  // as printed: "10000", "1e+06"
  std::string form;  // "full-head" / "axis-only"
  std::vector<DecayRow> rows;
  const DecayRow* find(const std::string& label) const {
    for (const auto& r : rows)
      if (r.label == label) return &r;
    return nullptr;
  }
};

struct AxisLayoutLine {
  std::string label;  // "MRoPE [16,24,24] chunked"
  std::map<char, int> counts;
  std::string axes;  // "TTT...HHH...WWW"
};

struct WavelengthLine {
  int headDim = 0;
  double base = 0;
  int context = 0;
  int dExtra = 0;
  int fullPeriodPairs = 0;
  Num lambdaMin, lambdaMax;
};

struct KernelRow {
  std::string base;
  std::vector<Num> values;
};

struct LambdaLine {
  double base = 0;
  Num total;
  std::map<char, Num> perAxis;
};

struct CounterexampleRow {
  double offset = 0;
  Num ptd, dist, kMin, kMax, uMin, uMax;
};

struct DecayBound {
  std::vector<int> distances;
  std::vector<DecayRow> roformer;  // labels "base=10000", "base=1e+06"
  std::vector<int> extraDistances;
  std::vector<Num> extra1e4;
  std::vector<AxisLayoutLine> layouts;
  std::vector<DecayTable> tables;
  std::vector<WavelengthLine> wavelengths;
  std::vector<KernelRow> kernel;
  std::vector<LambdaLine> lambdas;
  std::vector<CounterexampleRow> counterexample;
  bool hasHardPtd = false;
  Num hardPtd;

  const DecayTable* findTable(const std::string& base, const std::string& form) const {
    for (const auto& t : tables)
      if (t.base == base && t.form == form) return &t;
    return nullptr;
  }
  const DecayRow* findRoformer(const std::string& label) const {
    for (const auto& r : roformer)
      if (r.label == label) return &r;
    return nullptr;
  }
};

// A row "label   v0 v1 ... vn-1": the last n whitespace-separated tokens are numbers.
inline DecayRow splitLabelledRow(const std::string& line, std::size_t n) {
  auto toks = splitWs(line);
  if (toks.size() <= n) throw std::runtime_error("golden: short row: " + line);
  DecayRow r;
  for (std::size_t i = 0; i + n < toks.size(); ++i) r.label += (i ? " " : "") + toks[i];
  for (std::size_t i = toks.size() - n; i < toks.size(); ++i) r.values.push_back(parseNum(toks[i]));
  return r;
}

inline DecayBound parseDecayBound(const Lines& f) {
  DecayBound db;
  const std::regex distRe(R"(^distances: \[(.*)\]\s*$)");
  const std::regex tableRe(R"(^-- base=(\S+), (full-head|axis-only) --\s*$)");
  const std::regex layoutRe(R"(^layout (.*\S)\s+pairs per axis \{(.*)\}\s*$)");
  const std::regex mapRe(R"(^\s+pair->axis: ([THW]+)\s*$)");
  const std::regex extraRe(R"(^base=1e4 at ([0-9, ]+?)\s{2,}(.*)$)");
  const std::regex roRe(R"(^base=(\S+)\s{2,}(.*)$)");
  const std::regex wlRe(
      R"(^d=(\d+) base=(\S+)\s+L=(\d+)\s+d_extra=(\d+)\s+full-period pairs=(\d+)\s+lambda_min=(\S+)\s+lambda_max=(\S+)\s*$)");
  const std::regex kernelRe(R"(^SP kernel sum cos, base=(\S+)\s+(.*)$)");
  const std::regex lambdaRe(
      R"(^base=(\S+): Lambda=sum\(theta\)=(\S+)\s+per-axis \(chunked \[16,24,24\]\) \{(.*)\}\s*$)");
  const std::regex counterRe(
      R"(^circle R=10 N=9 text offset\s+(\S+): PTD=(\S+)\s+dist=(\S+)\s+K in \[(\S+), (\S+)\]\s+U in \[(\S+), (\S+)\]\s*$)");
  const std::regex hardRe(R"(^PTD hard 1-D .*: (\S+) \(.*$)");
  const std::regex kvRe(R"('(\w)': ([0-9.eE+-]+))");
  int section = 0;
  DecayTable* table = nullptr;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    const std::string& line = f.text[i];
    std::smatch m;
    if (line.empty() || line[0] == '#') continue;
    if (std::regex_match(line, m, distRe)) {
      std::string body = m[1];
      std::istringstream in(body);
      std::string item;
      while (std::getline(in, item, ',')) db.distances.push_back(std::stoi(item));
      continue;
    }
    if (startsWith(line, "== 1.")) {
      section = 1;
      continue;
    }
    if (startsWith(line, "== 2.")) {
      section = 2;
      continue;
    }
    if (startsWith(line, "== 3.")) {
      section = 3;
      table = nullptr;
      continue;
    }
    if (section == 1) {
      if (std::regex_match(line, m, extraRe)) {
        std::string ds = m[1];
        std::istringstream in(ds);
        std::string item;
        while (std::getline(in, item, ',')) db.extraDistances.push_back(std::stoi(item));
        db.extra1e4 = parseNums(std::string(m[2]));
      } else if (std::regex_match(line, m, roRe)) {
        DecayRow r;
        r.label = "base=" + std::string(m[1]);
        r.values = parseNums(std::string(m[2]));
        db.roformer.push_back(r);
      } else {
        throw std::runtime_error("golden: unrecognised line " + f.where(i) + ": " + line);
      }
      continue;
    }
    if (section == 2) {
      if (std::regex_match(line, m, layoutRe)) {
        AxisLayoutLine l;
        l.label = m[1];
        const std::string body = m[2];
        for (std::sregex_iterator it(body.begin(), body.end(), kvRe), end; it != end; ++it)
          l.counts[(*it)[1].str()[0]] = std::stoi((*it)[2].str());
        db.layouts.push_back(l);
      } else if (std::regex_match(line, m, mapRe) && !db.layouts.empty()) {
        db.layouts.back().axes = m[1];
      } else if (std::regex_match(line, m, tableRe)) {
        db.tables.push_back({});
        table = &db.tables.back();
        table->base = m[1];
        table->form = m[2];
      } else if (table) {
        table->rows.push_back(splitLabelledRow(line, db.distances.size()));
      } else {
        throw std::runtime_error("golden: unrecognised line " + f.where(i) + ": " + line);
      }
      continue;
    }
    if (section == 3) {
      if (std::regex_match(line, m, wlRe)) {
        WavelengthLine w;
        w.headDim = std::stoi(m[1]);
        w.base = std::stod(m[2]);
        w.context = std::stoi(m[3]);
        w.dExtra = std::stoi(m[4]);
        w.fullPeriodPairs = std::stoi(m[5]);
        w.lambdaMin = parseNum(std::string(m[6]));
        w.lambdaMax = parseNum(std::string(m[7]));
        db.wavelengths.push_back(w);
      } else if (std::regex_match(line, m, kernelRe)) {
        db.kernel.push_back({std::string(m[1]), parseNums(std::string(m[2]))});
      } else if (std::regex_match(line, m, lambdaRe)) {
        LambdaLine l;
        l.base = std::stod(m[1]);
        l.total = parseNum(std::string(m[2]));
        const std::string body = m[3];
        for (std::sregex_iterator it(body.begin(), body.end(), kvRe), end; it != end; ++it)
          l.perAxis[(*it)[1].str()[0]] = parseNum((*it)[2].str());
        db.lambdas.push_back(l);
      } else if (std::regex_match(line, m, counterRe)) {
        CounterexampleRow c;
        c.offset = std::stod(m[1]);
        c.ptd = parseNum(std::string(m[2]));
        c.dist = parseNum(std::string(m[3]));
        c.kMin = parseNum(std::string(m[4]));
        c.kMax = parseNum(std::string(m[5]));
        c.uMin = parseNum(std::string(m[6]));
        c.uMax = parseNum(std::string(m[7]));
        db.counterexample.push_back(c);
      } else if (std::regex_match(line, m, hardRe)) {
        db.hasHardPtd = true;
        db.hardPtd = parseNum(std::string(m[1]));
      }
      // Other section-3 lines (NTK, YaRN, critical lengths) are outside the API: not parsed.
      continue;
    }
    throw std::runtime_error("golden: unrecognised line " + f.where(i) + ": " + line);
  }
  return db;
}

inline const DecayBound& decayBound() {
  static const DecayBound db = parseDecayBound(readGolden("decay_bound.txt"));
  return db;
}

// ---------------------------------------------------------------------------------------------
// decay_reference.txt

struct RefCell {
  Num value;
  Num normalised;  // value / value at r = 0
};

struct RefRow {
  std::string label;  // "MRoPE[16,24,24] t"
  int n = 0;
  std::vector<RefCell> cells;
};

struct RefTable {
  std::string base;
  int rotDim = 0;
  std::string form;  // "subset" / "full"
  std::vector<int> r;
  std::vector<RefRow> rows;
  const RefRow* find(const std::string& label) const {
    for (const auto& row : rows)
      if (row.label == label) return &row;
    return nullptr;
  }
};

inline std::vector<RefTable> parseDecayReference(const Lines& f) {
  std::vector<RefTable> tables;
  const std::regex headRe(R"(^base=(\S+) rot_dim=(\d+) form=(\w+) ; .*$)");
  const std::regex cellRe(R"(^([0-9.]+)\(([0-9.]+)\)$)");
  RefTable* t = nullptr;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    const std::string& line = f.text[i];
    std::smatch m;
    if (line.empty() || line[0] == '#') continue;
    if (std::regex_match(line, m, headRe)) {
      tables.push_back({});
      t = &tables.back();
      t->base = m[1];
      t->rotDim = std::stoi(m[2]);
      t->form = m[3];
      continue;
    }
    if (!t) throw std::runtime_error("golden: data before a table header at " + f.where(i));
    auto toks = splitWs(line);
    if (!toks.empty() && toks[0] == "scheme/axis") {
      for (std::size_t k = 2; k < toks.size(); ++k) {
        if (!startsWith(toks[k], "r="))
          throw std::runtime_error("golden: bad header " + f.where(i));
        t->r.push_back(std::stoi(toks[k].substr(2)));
      }
      continue;
    }
    if (t->r.empty() || toks.size() < t->r.size() + 2)
      throw std::runtime_error("golden: unrecognised line " + f.where(i) + ": " + line);
    RefRow row;
    const std::size_t first = toks.size() - t->r.size();
    for (std::size_t k = 0; k + 1 < first; ++k) row.label += (k ? " " : "") + toks[k];
    row.n = std::stoi(toks[first - 1]);
    for (std::size_t k = first; k < toks.size(); ++k) {
      std::smatch cm;
      if (!std::regex_match(toks[k], cm, cellRe))
        throw std::runtime_error("golden: bad cell '" + toks[k] + "' at " + f.where(i));
      row.cells.push_back({parseNum(cm[1].str()), parseNum(cm[2].str())});
    }
    t->rows.push_back(row);
  }
  return tables;
}

inline const std::vector<RefTable>& decayReference() {
  static const std::vector<RefTable> t = parseDecayReference(readGolden("decay_reference.txt"));
  return t;
}

}  // namespace golden
