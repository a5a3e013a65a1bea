#include "space/space_axes.h"

#include <algorithm>
#include <cmath>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include "ropescope/axis_ticks.h"

namespace ropescope::ui {

namespace {

constexpr const char* kNames[3] = {"t", "h", "w"};
// Average advance of a digit, and the line height, in font sizes (DejaVu Sans and VTK's Arial
// are both near these): label boxes are estimated from them.
constexpr double kCharWidth = 0.62, kLineHeight = 1.15;
constexpr double kPad = 2.0;  // device pixels between any two labels

struct Vec2 {
  double x = 0, y = 0;
};
Vec2 operator+(Vec2 a, Vec2 b) {
  return {a.x + b.x, a.y + b.y};
}
Vec2 operator-(Vec2 a, Vec2 b) {
  return {a.x - b.x, a.y - b.y};
}
Vec2 operator*(Vec2 a, double s) {
  return {a.x * s, a.y * s};
}
double dot(Vec2 a, Vec2 b) {
  return a.x * b.x + a.y * b.y;
}

QString numberText(double v, double step) {
  // Snap to the step's precision: 0.1 * 3 prints as 0.3.
  const double snapped = std::round(v / step) * step;
  return QString::number(std::abs(snapped) < step * 1e-9 ? 0.0 : snapped, 'g', 10);
}

// A label that may be shown, where, how and how urgently.
struct Candidate {
  SpaceAxes::Label label;
  Vec2 at;
  int priority;  // lower first
  double fontSize;
  bool bold;
  const double* rgb;
  int group = -1;  // alternatives of one label: the first that fits is shown
};

// The places tried for an axis's name, in order: beyond the axis's end e (direction u on
// screen, n away from the content), clear of a number there, where the axis is long enough on
// screen; then beside the end, on either side. An axis seen end-on gets it beside its end.
std::vector<Vec2> namePlaces(Vec2 e, Vec2 u, Vec2 n, double len, double along, double across,
                             double nameH, double numH) {
  std::vector<Vec2> places;
  if (len > 2.5 * nameH) {
    places.push_back(e + u * (along + kPad * 2 + 0.4 * numH));
    places.push_back(e + u * (along + kPad));
  }
  places.push_back(e + n * (across + kPad * 2));
  places.push_back(e - n * (across + kPad * 2));
  places.push_back(e - u * (along + kPad) + n * (across + kPad * 2));
  places.push_back(e - u * (along + kPad) - n * (across + kPad * 2));
  return places;
}

// As many round ticks in [lo, hi] as fit along an axis `len` pixels long on screen in direction
// u: the most (up to 8) whose labels (`charW` pixels a character, `numH` high), measured along
// the axis, leave a gap between neighbours.
std::vector<double> ticksThatFit(double lo, double hi, double len, Vec2 u, double charW,
                                 double numH) {
  const auto extentAlong = [&](const QString& text) {
    const double lw = charW * (static_cast<double>(text.size()) + 0.5);
    return std::abs(u.x) * lw + std::abs(u.y) * numH;
  };
  std::vector<double> ticks;
  for (int m = 8; m >= 1; --m) {
    ticks = ticksWithin(lo, hi, m);
    if (ticks.size() < 2) break;
    const double st = ticks[1] - ticks[0];
    double widest = 0;
    for (double t : ticks) widest = std::max(widest, extentAlong(numberText(t, st)));
    if (len * st / (hi - lo) >= widest + 0.6 * numH) break;
  }
  return ticks;
}

// The candidates shown, greedily: names first, then the ends of each axis, then the ticks
// between; one that leaves `view` or touches a shown label or an obstacle is left out, and of a
// group only the first that fits is shown.
std::vector<const Candidate*> fitting(std::vector<Candidate>& candidates, const QRectF& view,
                                      const std::vector<QRectF>& obstacles,
                                      const std::vector<QRectF>& avoided) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& x, const Candidate& y) { return x.priority < y.priority; });
  std::vector<const Candidate*> shown;
  std::vector<QRectF> taken;
  const auto padded = [](const Candidate& c) {
    return c.label.box.adjusted(-kPad / 2, -kPad / 2, kPad / 2, kPad / 2);
  };
  // The axes' end numbers (priority 1): a name placed first must not take their place.
  std::vector<QRectF> ends;
  for (const Candidate& c : candidates)
    if (c.priority == 1) ends.push_back(padded(c));
  // Clear of what is placed and of the obstacles; `avoiding`: of the tokens and the end numbers
  // too.
  const auto fits = [&](const Candidate& c, bool avoiding) {
    const QRectF box = padded(c);
    if (!view.contains(c.label.box)) return false;
    for (const QRectF& r : taken)
      if (r.intersects(box)) return false;
    for (const QRectF& r : obstacles)
      if (r.intersects(box)) return false;
    if (!avoiding) return true;
    for (const QRectF& r : ends)
      if (r.intersects(box)) return false;
    for (const QRectF& r : avoided)
      if (r.intersects(c.label.box)) return false;
    return true;
  };
  std::vector<char> groupDone(3, 0);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& cand = candidates[i];
    if (cand.group < 0) {
      if (!fits(cand, false)) continue;
      taken.push_back(padded(cand));
      shown.push_back(&cand);
      continue;
    }
    if (groupDone[static_cast<std::size_t>(cand.group)]) continue;
    groupDone[static_cast<std::size_t>(cand.group)] = 1;
    // A group's places (one axis name's) follow each other: the first clear of the tokens and
    // the end numbers, else the first that fits (where the name went before tokens counted).
    std::size_t end = i;
    while (end < candidates.size() && candidates[end].group == cand.group) ++end;
    const Candidate* chosen = nullptr;
    for (const bool avoiding : {true, false})
      for (std::size_t k = i; k < end && !chosen; ++k)
        if (fits(candidates[k], avoiding)) chosen = &candidates[k];
    if (!chosen) continue;
    taken.push_back(padded(*chosen));
    shown.push_back(chosen);
  }
  return shown;
}

}  // namespace

SpaceAxes::SpaceAxes(vtkRenderer* renderer) : renderer_(renderer) {
  lines_ = vtkSmartPointer<vtkPolyData>::New();
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(lines_);
  linesActor_ = vtkSmartPointer<vtkActor>::New();
  linesActor_->SetMapper(mapper);
  linesActor_->GetProperty()->LightingOff();
  linesActor_->SetPickable(false);
  linesActor_->SetVisibility(false);
  renderer_->AddActor(linesActor_);
  for (auto& c : axisRgb_) c = {0.5, 0.5, 0.5};
}

SpaceAxes::~SpaceAxes() {
  renderer_->RemoveActor(linesActor_);
  for (auto& t : texts_) renderer_->RemoveActor2D(t);
}

void SpaceAxes::setBounds(const double bounds[6]) {
  std::copy(bounds, bounds + 6, bounds_);
}

void SpaceAxes::setVisible(bool visible) {
  visible_ = visible;
  linesActor_->SetVisibility(visible);
  if (!visible)
    for (auto& t : texts_) t->SetVisibility(false);
}

void SpaceAxes::setNumbersVisible(bool visible) {
  numbers_ = visible;
}

void SpaceAxes::setSizes(double numberPx, double namePx, double lineWidthPx) {
  numberPx_ = numberPx;
  namePx_ = namePx;
  lineWidth_ = lineWidthPx;
  linesActor_->GetProperty()->SetLineWidth(static_cast<float>(lineWidthPx));
}

void SpaceAxes::setColors(const double foreground[3],
                          const std::array<std::array<double, 3>, 3>& axes) {
  std::copy(foreground, foreground + 3, fg_);
  axisRgb_ = axes;
}

void SpaceAxes::setFontFile(const QString& path) {
  fontFile_ = path.toStdString();
  for (auto& t : texts_) {
    t->GetTextProperty()->SetFontFamily(VTK_FONT_FILE);
    t->GetTextProperty()->SetFontFile(fontFile_.c_str());
  }
}

vtkTextActor* SpaceAxes::textActor(std::size_t i) {
  while (texts_.size() <= i) {
    auto t = vtkSmartPointer<vtkTextActor>::New();
    t->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
    vtkTextProperty* p = t->GetTextProperty();
    p->SetJustificationToCentered();
    p->SetVerticalJustificationToCentered();
    if (!fontFile_.empty()) {
      p->SetFontFamily(VTK_FONT_FILE);
      p->SetFontFile(fontFile_.c_str());
    }
    t->SetPickable(false);
    t->SetVisibility(false);
    renderer_->AddActor2D(t);
    texts_.push_back(t);
  }
  return texts_[i];
}

void SpaceAxes::update() {
  shown_.clear();
  for (auto& t : texts_) t->SetVisibility(false);
  if (!visible_) return;
  const int* size = renderer_->GetSize();
  const double W = size[0], H = size[1];
  if (W < 2 || H < 2) return;
  vtkRenderWindow* window = renderer_->GetRenderWindow();
  const double px = window ? window->GetDPI() / 72.0 : 1.0;  // font size -> device pixels
  auto project = [this](const double p[3]) {
    renderer_->SetWorldPoint(p[0], p[1], p[2], 1.0);
    renderer_->WorldToDisplay();
    double d[3];
    renderer_->GetDisplayPoint(d);
    return Vec2{d[0], d[1]};
  };
  const double* b = bounds_;
  const double origin[3] = {b[0], b[2], b[4]};
  const double center[3] = {(b[0] + b[1]) / 2, (b[2] + b[3]) / 2, (b[4] + b[5]) / 2};
  const Vec2 o = project(origin), c = project(center);

  std::vector<Candidate> candidates;
  auto boxAt = [](Vec2 at, double w, double h) { return QRectF(at.x - w / 2, at.y - h / 2, w, h); };

  // Lines: the three axes from the shared origin, with tick marks toward the labels.
  auto pts = vtkSmartPointer<vtkPoints>::New();
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colors->SetNumberOfComponents(3);
  auto addLine = [&](const double p[3], const double q[3], const std::array<double, 3>& rgb) {
    const vtkIdType ids[2] = {pts->InsertNextPoint(p), pts->InsertNextPoint(q)};
    cells->InsertNextCell(2, ids);
    const unsigned char c3[3] = {static_cast<unsigned char>(std::lround(255 * rgb[0])),
                                 static_cast<unsigned char>(std::lround(255 * rgb[1])),
                                 static_cast<unsigned char>(std::lround(255 * rgb[2]))};
    colors->InsertNextTypedTuple(c3);
  };
  double maxSpan = 0;
  for (int a = 0; a < 3; ++a) maxSpan = std::max(maxSpan, b[2 * a + 1] - b[2 * a]);

  const double numH = numberPx_ * px * kLineHeight;
  const double nameH = namePx_ * px * kLineHeight;
  for (int a = 0; a < 3; ++a) {
    const double lo = b[2 * a], hi = b[2 * a + 1];
    double end[3] = {origin[0], origin[1], origin[2]};
    end[a] = hi;
    addLine(origin, end, axisRgb_[static_cast<std::size_t>(a)]);
    const Vec2 e = project(end);
    Vec2 v = e - o;
    const double len = std::sqrt(dot(v, v));
    const Vec2 u = len > 1e-6 ? v * (1.0 / len) : Vec2{1, 0};
    Vec2 n{-u.y, u.x};
    const Vec2 mid = (o + e) * 0.5;
    const Vec2 away = mid - c;
    if (dot(away, n) < 0 || (std::abs(dot(away, n)) < 1e-6 && n.y > 0)) n = n * -1.0;

    // The name beyond the axis's end, clear of a number there; where that leaves the view or
    // meets a label, beside the end, on either side (the first place that fits is taken). An
    // axis seen end-on gets it beside its end.
    Label name;
    name.text = kNames[a];
    name.axis = a;
    name.name = true;
    const double nameW = namePx_ * px * kCharWidth * 1.3;
    const double nameAlong = 0.5 * (std::abs(u.x) * nameW + std::abs(u.y) * nameH);
    const double nameAcross = 0.5 * (std::abs(n.x) * nameW + std::abs(n.y) * nameH);
    for (const Vec2& at : namePlaces(e, u, n, len, nameAlong, nameAcross, nameH, numH)) {
      name.box = boxAt(at, nameW, nameH);
      candidates.push_back(
          {name, at, 0, namePx_, true, axisRgb_[static_cast<std::size_t>(a)].data(), a});
    }

    if (!numbers_ || hi - lo <= 0) continue;
    const std::vector<double> ticks =
        ticksThatFit(lo, hi, len, u, numberPx_ * px * kCharWidth, numH);
    const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : std::max(1.0, hi - lo);
    const double tickLen = 0.02 * maxSpan;
    for (std::size_t k = 0; k < ticks.size(); ++k) {
      double at[3] = {origin[0], origin[1], origin[2]};
      at[a] = ticks[k];
      const Vec2 p = project(at);
      Label l;
      l.text = numberText(ticks[k], step).toStdString();
      l.axis = a;
      l.value = ticks[k];
      const double lw = numberPx_ * px * kCharWidth * (static_cast<double>(l.text.size()) + 0.5);
      const double off = 0.4 * numH + kPad + std::abs(n.x) * lw / 2 + std::abs(n.y) * numH / 2;
      const Vec2 centre = p + n * off;
      l.box = boxAt(centre, lw, numH);
      const bool endTick = k == 0 || k + 1 == ticks.size();
      candidates.push_back({l, centre, endTick ? 1 : 2, numberPx_, false, fg_});
      // A tick mark: a short stroke in the world, toward the side the label is on (the other
      // axis whose screen direction is closest to n).
      int best = -1;
      double bestDot = 0.3;
      for (int other = 0; other < 3; ++other) {
        if (other == a) continue;
        double q[3] = {origin[0], origin[1], origin[2]};
        q[other] += b[2 * other + 1] > b[2 * other] ? (b[2 * other + 1] - b[2 * other]) : 1.0;
        Vec2 dv = project(q) - o;
        const double dl = std::sqrt(dot(dv, dv));
        if (dl < 1e-6) continue;
        const double d = -dot(dv * (1.0 / dl), n);  // ticks point away from the content
        if (d > bestDot) bestDot = d, best = other;
      }
      if (best >= 0 && tickLen > 0) {
        double q[3] = {at[0], at[1], at[2]};
        q[best] -= tickLen;
        addLine(at, q, axisRgb_[static_cast<std::size_t>(a)]);
      }
    }
  }
  lines_->Initialize();
  lines_->SetPoints(pts);
  lines_->SetLines(cells);
  lines_->GetCellData()->SetScalars(colors);
  lines_->Modified();

  for (const Candidate* cand :
       fitting(candidates, QRectF(kPad, kPad, W - 2 * kPad, H - 2 * kPad), obstacles_, avoided_)) {
    vtkTextActor* t = textActor(shown_.size());
    t->SetInput(cand->label.text.c_str());
    vtkTextProperty* p = t->GetTextProperty();
    p->SetFontSize(std::max(1, static_cast<int>(std::lround(cand->fontSize))));
    p->SetBold(cand->bold);
    p->SetColor(cand->rgb[0], cand->rgb[1], cand->rgb[2]);
    t->SetPosition(cand->at.x, cand->at.y);
    t->SetVisibility(true);
    shown_.push_back(cand->label);
  }
}

}  // namespace ropescope::ui
