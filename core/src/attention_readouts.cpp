// Visual fading and per-picture read-outs of the causal attention (attention_readouts.h).
#include "ropescope/attention_readouts.h"

#include <algorithm>

#include "ropescope/errors.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

namespace {

bool aroVisual(Modality m) {
  return m == Modality::Image || m == Modality::Video;
}

// A picture's tokens in order, beside its readout.
struct AroPicture {
  PictureReadout out;
  std::vector<std::size_t> tokens;
  std::vector<double> acc;  // [token of the picture]: sum over heads and queries of P[r, k]
};

// The visual segments in layout order, with their grids.
std::vector<AroPicture> aroPictures(const PositionIds& ids) {
  std::vector<AroPicture> out;
  const auto& info = ids.tokens;
  for (std::size_t t = 0; t < info.size(); ++t) {
    if (!aroVisual(info[t].modality)) continue;
    if (out.empty() || out.back().out.segment != info[t].segment ||
        out.back().tokens.back() + 1 != t) {
      AroPicture p;
      p.out.name = "picture " + std::to_string(out.size() + 1);
      p.out.segment = info[t].segment;
      p.out.modality = info[t].modality;
      p.out.firstToken = t;
      out.push_back(std::move(p));
    }
    AroPicture& p = out.back();
    p.tokens.push_back(t);
    p.out.lastToken = t;
    p.out.frames = std::max(p.out.frames, info[t].frame + 1);
    p.out.rows = std::max(p.out.rows, info[t].row + 1);
    p.out.cols = std::max(p.out.cols, info[t].col + 1);
  }
  for (AroPicture& p : out) p.acc.assign(p.tokens.size(), 0.0);
  return out;
}

// The shares, centre and row trend of a picture from its accumulated weights.
void aroFinish(AroPicture& p, const PositionIds& ids, int heads) {
  PictureReadout& r = p.out;
  const double cells = double(p.tokens.size());
  const int rows = r.rows, cols = r.cols;
  double topLeftCells = 0.0, topRowCells = 0.0, leftCells = 0.0, borderCells = 0.0;
  for (std::size_t t : p.tokens) {
    const TokenInfo& i = ids.tokens[t];
    const bool top = i.row == 0, left = i.col == 0;
    topLeftCells += top && left;
    topRowCells += top;
    leftCells += left;
    borderCells += top || left || i.row == rows - 1 || i.col == cols - 1;
  }
  r.uniformTopLeft = topLeftCells / cells;
  r.uniformTopRow = topRowCells / cells;
  r.uniformLeftColumn = leftCells / cells;
  r.uniformBorder = borderCells / cells;
  if (r.queries == 0) {
    r.undefined = "no text token follows it";
    return;
  }
  double total = 0.0;
  for (double a : p.acc) total += a;
  if (!(total > 0.0)) {
    r.undefined = "the text after it puts no weight on it (every weight underflowed to 0)";
    return;
  }
  const double scale = double(heads) * double(r.queries);
  r.mass = total / scale;
  r.rowShare.assign(std::size_t(rows), 0.0);
  double rowMoment = 0.0, colMoment = 0.0;
  for (std::size_t j = 0; j < p.tokens.size(); ++j) {
    const TokenInfo& i = ids.tokens[p.tokens[j]];
    const double w = p.acc[j] / total;
    const bool top = i.row == 0, left = i.col == 0;
    if (top && left) r.topLeft += w;
    if (top) r.topRow += w;
    if (left) r.leftColumn += w;
    if (top || left || i.row == rows - 1 || i.col == cols - 1) r.border += w;
    r.rowShare[std::size_t(i.row)] += w;
    rowMoment += w * i.row;
    colMoment += w * i.col;
  }
  if (rows > 1) {
    r.centreRow = rowMoment / double(rows - 1);
    // Least squares over the rows x = 0..rows-1: sum (x - mean x)(y - mean y) / sum (x - mean
    // x)^2; the shares sum to 1, so mean y = 1 / rows.
    const double meanX = (rows - 1) / 2.0, meanY = 1.0 / rows;
    double sxy = 0.0, sxx = 0.0;
    for (int x = 0; x < rows; ++x) {
      sxy += (x - meanX) * (r.rowShare[std::size_t(x)] - meanY);
      sxx += (x - meanX) * (x - meanX);
    }
    r.rowSlope = sxy / sxx;
  }
  if (cols > 1) r.centreCol = colMoment / double(cols - 1);
}

}  // namespace

AttentionReadouts attentionReadouts(const AttentionProblem& problem, const PositionIds& ids,
                                    int threads) {
  validateProblem(problem);
  const std::size_t n = problem.qk.tokens;
  if (ids.tokens.size() != n)
    throw InputError("attention read-outs: the ids describe " + std::to_string(ids.tokens.size()) +
                     " tokens but q/k hold " + std::to_string(n));
  if (!problem.causal)
    throw InputError(
        "attention read-outs are measured under a causal mask; build the problem with causal "
        "true");
  AttentionReadouts out;
  out.tokens = n;
  out.heads = problem.qk.qHeads;
  std::vector<AroPicture> pictures = aroPictures(ids);
  std::vector<bool> visual(n, false);
  for (std::size_t t = 0; t < n; ++t) visual[t] = aroVisual(ids.tokens[t].modality);
  if (pictures.empty()) {
    out.picturesUndefined = "the layout has no picture or video";
    out.fadingUndefined = out.picturesUndefined;
    return out;
  }
  const std::size_t lastVisual = pictures.back().out.lastToken;
  for (std::size_t t = lastVisual + 1; t < n; ++t)
    if (ids.tokens[t].modality == Modality::Text) out.fadingTokens.push_back(t);
  if (out.fadingTokens.empty()) out.fadingUndefined = "no text token follows the last picture";
  for (AroPicture& p : pictures)
    for (std::size_t t = p.out.lastToken + 1; t < n; ++t)
      p.out.queries += ids.tokens[t].modality == Modality::Text;

  // Only text rows after the first picture are read.
  const std::size_t first = pictures.front().out.lastToken + 1;
  if (first < n) {
    const auto backend = makeCpuAttentionBackend(threads);
    backend->load(problem);
    for (int h = 0; h < out.heads; ++h) {
      std::vector<double> fading;
      forEachSoftmaxBlock(*backend, h, first, threads,
                          [&](std::size_t r0, std::size_t r1, const float* rows) {
                            for (std::size_t r = r0; r < r1; ++r) {
                              if (ids.tokens[r].modality != Modality::Text) continue;
                              const float* row = rows + (r - r0) * n;
                              for (AroPicture& p : pictures) {
                                if (p.out.lastToken >= r) break;
                                for (std::size_t j = 0; j < p.tokens.size(); ++j)
                                  p.acc[j] += row[p.tokens[j]];
                              }
                              if (r > lastVisual) {
                                double v = 0.0;
                                for (std::size_t k = 0; k < r; ++k)
                                  if (visual[k]) v += row[k];
                                fading.push_back(v);
                              }
                            }
                          });
      out.fadingHead.push_back(std::move(fading));
    }
  }
  if (!out.fadingTokens.empty()) {
    const std::size_t visualCount = std::size_t(std::count(visual.begin(), visual.end(), true));
    for (std::size_t t : out.fadingTokens)
      out.fadingUniform.push_back(double(visualCount) / double(t + 1));
    out.fading.assign(out.fadingTokens.size(), 0.0);
    for (const auto& head : out.fadingHead)
      for (std::size_t i = 0; i < head.size(); ++i) out.fading[i] += head[i] / out.heads;
  } else {
    out.fadingHead.clear();
  }
  for (AroPicture& p : pictures) {
    aroFinish(p, ids, out.heads);
    out.pictures.push_back(std::move(p.out));
  }
  return out;
}

AttentionReadouts sceneAttentionReadouts(const Scene& scene, const QkSourceSpec& source,
                                         int threads) {
  const AttentionProblem problem = makeAttentionProblem(scene, source, true);
  return attentionReadouts(problem, effectiveIds(scene), threads);
}

}  // namespace ropescope
