// The design-principles verdict (principles.h): one pass over the ids for the overlap and the
// intervals, the plan's frequencies per axis, and text alone against vanilla 1-D RoPE.
#include "ropescope/principles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "ropescope/errors.h"
#include "ropescope/ids_file.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

namespace {

// A number in a reason: 4 significant digits.
std::string shown4(double v) {
  return readableNumber(v, 4);
}

constexpr Axis kIdAxes[3] = {Axis::T, Axis::H, Axis::W};

bool isVisual(Modality m) {
  return m == Modality::Image || m == Modality::Video;
}

Coherence coherenceOf(const PositionIds& ids) {
  Coherence c;
  const std::size_t n = ids.size();
  double largest = -std::numeric_limits<double>::infinity();
  for (const Id3& id : ids.ids) largest = std::max({largest, id[0], id[1], id[2]});
  c.growth = n > 0 ? (largest + 1.0) / static_cast<double>(n) : 0.0;

  // Running largest visual id per axis (and its token), and the open block.
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  Id3 visualMax{kNone, kNone, kNone};
  std::size_t visualAt[3] = {0, 0, 0};
  bool anyVisual = false;
  int openBlock = -1;  // index into c.blocks of the block waiting for its next text token
  for (std::size_t k = 0; k < n; ++k) {
    const TokenInfo& t = ids.tokens[k];
    const Id3& id = ids.ids[k];
    if (isVisual(t.modality)) {
      anyVisual = true;
      if (c.blocks.empty() || c.blocks.back().segment != t.segment) {
        BlockInterval b;
        b.segment = t.segment;
        b.firstToken = k;
        b.largest = id;
        c.blocks.push_back(b);
        // The first block still waiting for its next text token (blocks may follow each other).
        if (openBlock < 0) openBlock = static_cast<int>(c.blocks.size()) - 1;
      }
      BlockInterval& b = c.blocks.back();
      for (int a = 0; a < 3; ++a) {
        b.largest[a] = std::max(b.largest[a], id[a]);
        if (id[a] > visualMax[a]) {
          visualMax[a] = id[a];
          visualAt[a] = k;
        }
      }
      continue;
    }
    if (t.modality != Modality::Text) continue;
    // Every block still waiting gets this text token as its next one.
    for (int i = openBlock; i >= 0 && i < static_cast<int>(c.blocks.size()); ++i) {
      BlockInterval& b = c.blocks[static_cast<std::size_t>(i)];
      if (b.nextText) continue;
      b.nextText = k;
      b.interval = Id3{id[0] - b.largest[0], id[1] - b.largest[1], id[2] - b.largest[2]};
    }
    openBlock = -1;
    if (!anyVisual) continue;
    bool overlapping = false;
    for (int a = 0; a < 3; ++a) {
      if (id[a] > visualMax[a]) continue;
      if (!c.overlap) c.overlap = IdOverlap{k, visualAt[a], kIdAxes[a], id[a], visualMax[a]};
      overlapping = true;
    }
    if (overlapping) ++c.overlappingText;
  }
  for (BlockInterval& b : c.blocks)
    if (!b.nextText) b.undefined = "no text token after the block";
  for (const BlockInterval& b : c.blocks) {
    if (!b.interval) continue;
    if (!c.smallestInterval) {
      c.smallestInterval = b.interval;
      continue;
    }
    for (int a = 0; a < 3; ++a)
      (*c.smallestInterval)[a] = std::min((*c.smallestInterval)[a], (*b.interval)[a]);
  }
  if (!anyVisual) {
    c.intervalUndefined = "no visual token";
    c.verdict = Verdict::Undefined;
    c.reason = "no visual token: nothing can overlap the text";
    return c;
  }
  if (!c.smallestInterval) c.intervalUndefined = "no text token after a visual block";
  if (c.overlap) {
    c.verdict = Verdict::Fail;
    c.reason = "text token " + std::to_string(c.overlap->textToken) + " has " +
               axisName(c.overlap->axis) + " id " + shown4(c.overlap->textId) +
               ", at or below visual token " + std::to_string(c.overlap->visualToken) + "'s " +
               shown4(c.overlap->visualId);
  } else {
    c.verdict = Verdict::Pass;
    c.reason = "every text id is above every earlier visual id";
  }
  return c;
}

// The axes a design's ids use: one index (t = h = w) for a Line design, h and w for the plane,
// t, h, w for space, and h+w-t as well for VRoPE's four maps.
std::vector<Axis> judgedAxes(MetricSpace space) {
  switch (space) {
    case MetricSpace::Line:
      return {};  // one index: read as all pairs together (FrequencyUse::oneIndexShare)
    case MetricSpace::Plane:
      return {Axis::H, Axis::W};
    case MetricSpace::Space:
      return {Axis::T, Axis::H, Axis::W};
    case MetricSpace::FourMaps:
      return {Axis::T, Axis::H, Axis::W, Axis::Mix};
  }
  return {Axis::T, Axis::H, Axis::W};
}

// The tables a plan gives: one, or one per KV head for a per-head plan (MHRoPE).
std::vector<PairTable> tablesOf(const FrequencySpec& spec) {
  if (spec.plan != "multihead") return {resolvePairs(spec)};
  std::vector<PairTable> out;
  for (int h = 0; h < spec.kvHeads; ++h) {
    FrequencySpec one = spec;
    one.kvHead = h;
    out.push_back(resolvePairs(one));
  }
  return out;
}

// The vanilla plan of the same rotary (base, dims, scaling): every pair on one index.
PairTable vanillaPairs(const FrequencySpec& spec) {
  FrequencySpec plain = spec;
  plain.plan = "vanilla";
  plain.sections.clear();
  return resolvePairs(plain);
}

FrequencyUse frequencyUseOf(const FrequencySpec& spec, MetricSpace space) {
  FrequencyUse f;
  const std::vector<PairTable> tables = tablesOf(spec);
  f.heads = static_cast<int>(tables.size());
  bool mix = false;
  for (const PairTable& t : tables)
    for (Axis a : t.axis) {
      mix = mix || a == Axis::Mix;
      if (a == Axis::None) ++f.nopePairs;
    }
  // The range is the spectrum the base and dims give (vanilla RoPE's), so that a plan that
  // stops some pairs rotating (HoPE) does not shrink it.
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (double th : vanillaPairs(spec).theta)
    if (th > 0.0) {
      lo = std::min(lo, th);
      hi = std::max(hi, th);
    }
  if (hi <= 0.0) {
    f.verdict = Verdict::Fail;
    f.reason = "no pair rotates";
    return f;
  }
  f.planLowest = lo;
  f.planHighest = hi;
  const double range = std::log(hi) - std::log(lo);
  const std::vector<Axis> judged = judgedAxes(space);
  std::vector<Axis> listed = {Axis::T, Axis::H, Axis::W};
  if (mix || space == MetricSpace::FourMaps) listed.push_back(Axis::Mix);
  std::string failing;
  for (Axis axis : listed) {
    AxisSpectrum s;
    s.axis = axis;
    s.judged = std::find(judged.begin(), judged.end(), axis) != judged.end();
    for (const PairTable& t : tables)
      for (int p = 0; p < t.size(); ++p) {
        if (t.axis[static_cast<std::size_t>(p)] != axis) continue;
        ++s.pairs;
        const double th = t.theta[static_cast<std::size_t>(p)];
        s.thetas.push_back(th);
        if (th <= 0.0) continue;
        ++s.rotating;
        s.lowest = s.lowest ? std::min(*s.lowest, th) : th;
        s.highest = s.highest ? std::max(*s.highest, th) : th;
      }
    std::sort(s.thetas.begin(), s.thetas.end(), std::greater<>());
    if (s.rotating > 0)
      s.share = range > 0.0 ? (std::log(*s.highest) - std::log(*s.lowest)) / range : 1.0;
    if (s.judged && s.share < kFullSpectrumShare)
      failing += std::string(failing.empty() ? "" : "; ") + axisName(axis) + " spans " +
                 shown4(s.share) +
                 (s.rotating == 0 ? " (no rotating pair)" : " of the log-frequency range");
    f.axes.push_back(std::move(s));
  }
  if (space == MetricSpace::Line) {
    // Every pair turns with the one index, whatever axis the plan gives it.
    double axesLo = 0.0, axesHi = 0.0;
    for (const PairTable& t : tables)
      for (int p = 0; p < t.size(); ++p) {
        const double th = t.theta[static_cast<std::size_t>(p)];
        if (t.axis[static_cast<std::size_t>(p)] == Axis::None || th <= 0.0) continue;
        axesLo = axesLo == 0.0 ? th : std::min(axesLo, th);
        axesHi = std::max(axesHi, th);
      }
    f.oneIndexShare = range > 0.0 ? (std::log(axesHi) - std::log(axesLo)) / range : 1.0;
    if (*f.oneIndexShare < kFullSpectrumShare)
      failing = "the one index spans " + shown4(*f.oneIndexShare) + " of the log-frequency range";
  }
  if (failing.empty()) {
    f.verdict = Verdict::Pass;
    f.reason = std::string(f.oneIndexShare ? "the one index (t = h = w) turns with every pair"
                                           : "every axis the ids use") +
               " spans at least " + shown4(kFullSpectrumShare) + " of the log-frequency range";
  } else {
    f.verdict = Verdict::Fail;
    f.reason = failing;
  }
  return f;
}

// Text alone: `layout` (text runs only) under the scene's design and plan against vanilla RoPE.
TextPriorCheck textCheck(const Scene& scene, const Layout& layout,
                         const std::vector<PairTable>& tables, const PairTable& vanilla) {
  TextPriorCheck c;
  c.tokens = layout.tokenCount();
  if (c.tokens == 0) {
    c.undefined = "the scene has no text token";
    return c;
  }
  if (scene.design == kIdsFileDesign) {
    c.undefined = "ids from a file: no rule places text alone";
    return c;
  }
  Scene alone = scene;
  alone.layout = layout;
  PositionIds ids;
  try {
    ids = effectiveIds(alone);
  } catch (const InputError& e) {
    c.undefined = std::string("the design refuses text alone: ") + e.what();
    return c;
  }
  double idDiff = 0.0, rotDiff = 0.0;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const Id3& id = ids.ids[k];
    const double index = static_cast<double>(k);
    double idHere = 0.0, rotHere = 0.0;
    for (int a = 0; a < 3; ++a) idHere = std::max(idHere, std::abs(id[a] - index));
    for (const PairTable& t : tables)
      for (int p = 0; p < t.size() && p < vanilla.size(); ++p) {
        const auto q = static_cast<std::size_t>(p);
        const double mine = t.theta[q] * axisCoordinate(t.axis[q], id);
        const double base = vanilla.theta[q] * index;
        if (mine == base) continue;
        rotHere = std::max(rotHere, std::abs(2.0 * std::sin(0.5 * (mine - base))));
      }
    if ((idHere > kTextPriorTolerance || rotHere > kTextPriorTolerance) && !c.firstToken)
      c.firstToken = k;
    idDiff = std::max(idDiff, idHere);
    rotDiff = std::max(rotDiff, rotHere);
  }
  c.idDifference = idDiff;
  c.rotaryDifference = rotDiff;
  return c;
}

}  // namespace

const char* verdictName(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "pass";
    case Verdict::Fail:
      return "fail";
    case Verdict::Undefined:
      break;
  }
  return "n/a";
}

bool TextPriorCheck::equal() const {
  return idDifference && rotaryDifference && *idDifference <= kTextPriorTolerance &&
         *rotaryDifference <= kTextPriorTolerance;
}

PrinciplesVerdict principlesVerdict(const Scene& scene, const std::string& label) {
  PrinciplesVerdict v;
  v.design = effectiveDesign(scene);
  v.label = label.empty() ? v.design : label;
  v.plan = scene.frequency.plan;
  const PositionIds ids = effectiveIds(scene);
  v.sections =
      scene.frequency.sections.empty()
          ? findPlan(scene.frequency.plan).defaultSections(scene.frequency.rotary.pairCount())
          : scene.frequency.sections;
  v.coherence = coherenceOf(ids);
  v.frequency = frequencyUseOf(scene.frequency, ids.space);

  // The textual prior: the scene's text runs alone, and a plain text-only layout.
  const std::vector<PairTable> tables = tablesOf(scene.frequency);
  const PairTable vanilla = vanillaPairs(scene.frequency);
  Layout textRuns;
  for (const Segment& s : scene.layout.segments)
    if (s.isText()) textRuns.segments.push_back(s);
  Layout textOnly;
  textOnly.segments.push_back(Segment::text(kTextPriorTokens));
  v.text.sceneText = textCheck(scene, textRuns, tables, vanilla);
  v.text.textOnly = textCheck(scene, textOnly, tables, vanilla);
  const TextPriorCheck* bad = nullptr;
  for (const TextPriorCheck* c : {&v.text.sceneText, &v.text.textOnly})
    if (c->idDifference && !c->equal() && !bad) bad = c;
  if (bad) {
    v.text.verdict = Verdict::Fail;
    v.text.reason = std::string("on ") +
                    (bad == &v.text.sceneText ? "the scene's text" : "text alone") +
                    " the ids differ from vanilla RoPE's by up to " + shown4(*bad->idDifference) +
                    " and the rotations by a chord of up to " + shown4(*bad->rotaryDifference) +
                    " (first at token " + std::to_string(*bad->firstToken) + ")";
  } else if (v.text.textOnly.idDifference || v.text.sceneText.idDifference) {
    v.text.verdict = Verdict::Pass;
    v.text.reason = "on text alone the ids and the rotary equal vanilla 1-D RoPE's";
  } else {
    v.text.verdict = Verdict::Undefined;
    v.text.reason = v.text.textOnly.undefined;
  }
  return v;
}

std::vector<PrinciplesVerdict> everyDesignVerdict(const Scene& scene, const Progress& progress) {
  std::vector<PrinciplesVerdict> out;
  const std::vector<const PositionDesign*>& designs = allDesigns();
  for (const PositionDesign* d : designs) {
    if (progress.cancel && progress.cancel()) throw Cancelled("the verdict of every design");
    if (progress.report)
      progress.report(static_cast<double>(out.size()) / static_cast<double>(designs.size()));
    Scene s = scene;
    s.ageLayer = -1;
    pickDesign(s, d->name());
    out.push_back(principlesVerdict(s, d->name()));
  }
  return out;
}

}  // namespace ropescope
