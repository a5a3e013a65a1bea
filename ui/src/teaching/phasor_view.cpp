#include "teaching/phasor_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QSlider>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "figures/figure_style.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/axis_ticks.h"
#include "ropescope/metrics.h"
#include "style/axis_colors.h"
#include "style/scrolling.h"
#include "teaching/formula_panel.h"

namespace ropescope::ui {

namespace {

constexpr int kMaxDistance = figure::kPhasorMaxDistance;
const char* const kDirectionNames[4] = {"t", "h", "w", "thw"};

// Text in one line: the first of `forms` (longest first) that fits, else the last elided at
// the right. Shorter forms drop words, not digits: "their mean U(Δ) = 26…." hid the number
// the tour asks the reader to look at.
void drawLine(QPainter& p, const QRectF& r, const QStringList& forms) {
  const QFontMetricsF fm(p.font());
  QString text = forms.isEmpty() ? QString() : forms.back();
  for (const QString& form : forms)
    if (fm.horizontalAdvance(form) <= r.width()) {
      text = form;
      break;
    }
  p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(text, Qt::ElideRight, r.width()));
}

struct Theme {
  QColor background, text, faint, grid;
};

Theme theme(bool dark) {
  if (dark)
    return {QColor(30, 32, 36), QColor(230, 230, 230), QColor(150, 150, 150), QColor(70, 72, 78)};
  return {QColor(255, 255, 255), QColor(25, 25, 25), QColor(110, 110, 110), QColor(215, 215, 215)};
}

void drawDials(QPainter& p, const QRectF& area, const Phasor& ph, const Theme& th) {
  const int n = static_cast<int>(ph.pairs.size());
  p.setPen(th.text);
  QFont f = p.font();
  f.setPixelSize(std::clamp(static_cast<int>(area.height() / 22), 10, 14));
  p.setFont(f);
  const QRectF title(area.left(), area.top(), area.width(), f.pixelSize() * 1.6);
  drawLine(p, title,
           {QStringLiteral("e^(iφₖ) of each pair k = 0…%1").arg(std::max(0, n - 1)),
            QStringLiteral("e^(iφₖ), k = 0…%1").arg(std::max(0, n - 1))});
  if (n == 0) return;
  const QRectF r = area.adjusted(0, title.height(), 0, 0);
  int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(n * r.width() / r.height()))));
  int rows = (n + cols - 1) / cols;
  while (cols > 1 && (cols - 1) * rows >= n) --cols;
  rows = (n + cols - 1) / cols;
  const double cell = std::min(r.width() / cols, r.height() / rows);
  const double radius = cell * 0.42;
  QFont small = p.font();
  small.setPixelSize(std::clamp(static_cast<int>(cell * 0.26), 8, 11));
  for (int k = 0; k < n; ++k) {
    const PhasorPair& q = ph.pairs[k];
    const QPointF c(r.left() + (k % cols + 0.5) * cell, r.top() + (k / cols + 0.5) * cell);
    p.setPen(QPen(th.grid, 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawEllipse(c, radius, radius);
    p.drawLine(c + QPointF(radius * 0.8, 0), c + QPointF(radius, 0));  // φ = 0 mark
    const QColor col = axisColor(static_cast<int>(q.axis));
    const QPointF tip = c + QPointF(radius * q.re, -radius * q.im);
    p.setPen(QPen(col, std::max(1.5, cell / 14.0), Qt::SolidLine, Qt::RoundCap));
    p.drawLine(c, tip);
    p.setPen(Qt::NoPen);
    p.setBrush(col);
    p.drawEllipse(tip, radius * 0.13 + 0.8, radius * 0.13 + 0.8);
    if (cell >= 26 && k % std::max(1, cols / 2) == 0) {
      p.setFont(small);
      p.setPen(th.faint);
      p.drawText(QRectF(c.x() - cell / 2, c.y() - cell / 2, cell * 0.5, cell * 0.35),
                 Qt::AlignLeft | Qt::AlignTop, QString::number(k));
    }
  }
  p.setFont(f);
}

void drawSpiral(QPainter& p, const QRectF& area, const Phasor& ph, const Theme& th) {
  const int n = static_cast<int>(ph.pairs.size());
  QFont f = p.font();
  p.setPen(th.text);
  const QRectF title(area.left(), area.top(), area.width(), f.pixelSize() * 1.6);
  const QString end = QString::number(std::hypot(ph.endRe, ph.endIm), 'f', 3);
  drawLine(p, title,
           {QStringLiteral("Sⱼ head to tail, |Sₙ| = %1").arg(end),
            QStringLiteral("|Sₙ| = %1").arg(end)});
  const QRectF r = area.adjusted(6, title.height() + 4, -6, -6);
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  for (const PhasorPair& q : ph.pairs) {
    x0 = std::min(x0, q.sumRe);
    x1 = std::max(x1, q.sumRe);
    y0 = std::min(y0, q.sumIm);
    y1 = std::max(y1, q.sumIm);
  }
  const double span = std::max({x1 - x0, y1 - y0, 1.0});
  const double scale = std::min(r.width(), r.height()) / (span * 1.08);
  const QPointF mid((x0 + x1) / 2, (y0 + y1) / 2);
  auto map = [&](double x, double y) {
    return QPointF(r.center().x() + (x - mid.x()) * scale, r.center().y() - (y - mid.y()) * scale);
  };
  // Axes through the origin.
  p.setPen(QPen(th.grid, 1.0));
  const QPointF o = map(0, 0);
  p.drawLine(QPointF(r.left(), o.y()), QPointF(r.right(), o.y()));
  p.drawLine(QPointF(o.x(), r.top()), QPointF(o.x(), r.bottom()));
  // |S_n| as a dashed chord.
  if (n > 0) {
    p.setPen(QPen(th.faint, 1.2, Qt::DashLine));
    p.drawLine(o, map(ph.endRe, ph.endIm));
  }
  QPointF prev = o;
  const double width = std::clamp(scale * 0.18, 1.2, 3.0);
  for (const PhasorPair& q : ph.pairs) {
    const QPointF head = map(q.sumRe, q.sumIm);
    p.setPen(QPen(axisColor(static_cast<int>(q.axis)), width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(prev, head);
    prev = head;
  }
  p.setPen(Qt::NoPen);
  p.setBrush(th.text);
  p.drawEllipse(o, 3.5, 3.5);
  if (n > 0) p.drawEllipse(prev, 3.5, 3.5);
  // Scale bar.
  const double step = scaleBarStep(span);
  const double len = step * scale;
  const QPointF a(r.right() - len - 4, r.bottom() - 4);
  p.setPen(QPen(th.text, 1.5));
  p.drawLine(a, a + QPointF(len, 0));
  p.drawLine(a + QPointF(0, -3), a + QPointF(0, 3));
  p.drawLine(a + QPointF(len, -3), a + QPointF(len, 3));
  p.drawText(QRectF(a.x() - 40, a.y() - f.pixelSize() * 1.5, len + 80, f.pixelSize() * 1.4),
             Qt::AlignCenter, QStringLiteral("length %1").arg(step));
}

void drawBars(QPainter& p, const QRectF& area, const Phasor& ph, const Theme& th) {
  const int n = static_cast<int>(ph.pairs.size());
  QFont f = p.font();
  p.setPen(th.text);
  const double lh = f.pixelSize() * 1.6;
  const QString bound = QString::number(ph.decayBound, 'f', 4);
  drawLine(p, QRectF(area.left(), area.top(), area.width(), lh),
           {QStringLiteral("|Sⱼ| for j = 1…%1; dashed: their mean U(Δ) = %2 (%3 at Δ = 0)")
                .arg(n)
                .arg(bound)
                .arg((n + 1) / 2.0),
            QStringLiteral("|Sⱼ|, j = 1…%1; dashed: mean U(Δ) = %2").arg(n).arg(bound),
            QStringLiteral("dashed: U(Δ) = %1").arg(bound)});
  if (n == 0) return;
  const double labelW = f.pixelSize() * 2.6;
  const QRectF r = area.adjusted(labelW, lh * 1.4, -4, -4);
  // Fixed scale: |S_j| ≤ j ≤ n, so the bars shrink visibly as Δ grows.
  const double top = n;
  auto y = [&](double v) { return r.bottom() - v / top * r.height(); };
  p.setPen(QPen(th.grid, 1.0));
  for (double v : {0.0, top / 2, top}) {
    p.drawLine(QPointF(r.left(), y(v)), QPointF(r.right(), y(v)));
    p.setPen(th.faint);
    p.drawText(QRectF(area.left(), y(v) - lh / 2, labelW - 4, lh),
               Qt::AlignRight | Qt::AlignVCenter, QString::number(v, 'g', 4));
    p.setPen(QPen(th.grid, 1.0));
  }
  const double bw = r.width() / n;
  p.setPen(Qt::NoPen);
  for (int k = 0; k < n; ++k) {
    const PhasorPair& q = ph.pairs[k];
    p.setBrush(axisColor(static_cast<int>(q.axis)));
    const double h = q.sumLength / top * r.height();
    p.drawRect(QRectF(r.left() + k * bw + bw * 0.1, r.bottom() - h, std::max(1.0, bw * 0.8), h));
  }
  p.setPen(QPen(th.text, 1.6, Qt::DashLine));
  p.drawLine(QPointF(r.left(), y(ph.decayBound)), QPointF(r.right(), y(ph.decayBound)));
}

// Draws the axis legend right-aligned in `area`; returns its width.
double drawLegend(QPainter& p, const QRectF& area, const Phasor& ph, const Theme& th) {
  bool present[5] = {false, false, false, false, false};  // by Axis
  for (const PhasorPair& q : ph.pairs) present[std::clamp(static_cast<int>(q.axis), 0, 4)] = true;
  const char* names[5] = {"t", "h", "w", "none (NoPE)", "h+w-t"};
  double x = area.right();
  const QFontMetricsF fm(p.font());
  for (const int a : {3, 4, 2, 1, 0}) {  // drawn right to left: t h w h+w-t none
    if (!present[a]) continue;
    const QString label = QString::fromLatin1(names[a]);
    const double w = fm.horizontalAdvance(label);
    x -= w + 4;
    p.setPen(th.text);
    p.drawText(QRectF(x, area.top(), w + 4, area.height()), Qt::AlignLeft | Qt::AlignVCenter,
               label);
    x -= 14;
    p.fillRect(QRectF(x, area.center().y() - 5, 10, 10), axisColor(a));
    x -= 10;
  }
  return area.right() - x;
}

}  // namespace

void paintPhasor(QPainter& p, const QRect& rect, const Phasor& ph, bool dark,
                 const QString& caption) {
  const Theme th = theme(dark);
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect, th.background);
  QFont f = p.font();
  f.setPixelSize(std::clamp(rect.height() / 36, 11, 16));
  p.setFont(f);
  const double lh = f.pixelSize() * 1.8;
  const QRectF head(rect.left() + 8, rect.top() + 4, rect.width() - 16, lh);
  QFont bold = f;
  bold.setBold(true);
  const double legendW = drawLegend(p, head, ph, th);
  // The caption shrinks (down to 9 px) until it fits beside the legend.
  const double room = head.width() - legendW - 12;
  while (bold.pixelSize() > 9 && QFontMetricsF(bold).horizontalAdvance(caption) > room)
    bold.setPixelSize(bold.pixelSize() - 1);
  p.setFont(bold);
  p.setPen(th.text);
  drawLine(p, QRectF(head.left(), head.top(), room, head.height()), {caption});
  p.setFont(f);
  const QRectF body(rect.left() + 8, rect.top() + 4 + lh, rect.width() - 16,
                    rect.height() - 12 - lh);
  const double topH = body.height() * 0.64;
  const QRectF dials(body.left(), body.top(), body.width() * 0.5 - 6, topH);
  const QRectF spiral(body.left() + body.width() * 0.5 + 6, body.top(), body.width() * 0.5 - 6,
                      topH);
  const QRectF bars(body.left(), body.top() + topH + 8, body.width(), body.height() - topH - 8);
  drawDials(p, dials, ph, th);
  drawSpiral(p, spiral, ph, th);
  drawBars(p, bars, ph, th);
  p.restore();
}

PhasorCanvas::PhasorCanvas(QWidget* parent) : QWidget(parent) {
  // Low enough that the tab, opened over the attention dock on a laptop screen, scrolls little.
  setMinimumSize(320, 120);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void PhasorCanvas::setPhasor(const Phasor& phasor, const QString& caption) {
  phasor_ = phasor;
  caption_ = caption;
  update();
}

void PhasorCanvas::setDark(bool dark) {
  dark_ = dark;
  update();
}

void PhasorCanvas::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintPhasor(p, rect(), phasor_, dark_, caption_);
}

PhasorView::PhasorView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setObjectName(QStringLiteral("phasorView"));
  // In a scroll area: the tab asks for little height, so the attention dock under it has room.
  auto* body = new QWidget;
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* column = new QVBoxLayout(body);
  column->setContentsMargins(4, 4, 4, 4);
  column->setSpacing(4);
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Δ along")));
  direction_ = new QComboBox;
  direction_->setObjectName(QStringLiteral("phasorDirection"));
  direction_->addItems({tr("t"), tr("h"), tr("w"), tr("t, h, w (text)"), tr("selected tokens")});
  direction_->setCurrentIndex(1);
  direction_->setToolTip(
      tr("Move Δ along one axis, along all three (as text does), or take the displacement from "
         "the selected text token to the picked visual token"));
  controls->addWidget(direction_);
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setObjectName(QStringLiteral("phasorSlider"));
  slider_->setRange(0, 256);
  slider_->setValue(3);
  controls->addWidget(slider_, 1);
  spin_ = new QSpinBox;
  spin_->setObjectName(QStringLiteral("phasorDistance"));
  spin_->setRange(0, kMaxDistance);
  spin_->setValue(3);
  spin_->setToolTip(tr("Relative distance in positions (0 to %1)").arg(kMaxDistance));
  controls->addWidget(spin_);
  column->addLayout(controls);
  readout_ = new QLabel;
  readout_->setObjectName(QStringLiteral("phasorReadout"));
  column->addWidget(readout_);
  note_ = new QLabel;
  note_->setWordWrap(true);
  note_->setStyleSheet(QStringLiteral("color: #e0a040;"));
  note_->hide();
  column->addWidget(note_);
  canvas_ = new PhasorCanvas;
  column->addWidget(canvas_, 1);
  formulas_ = new FormulaPanel;
  column->addWidget(formulas_);
  outer->addWidget(scrolling(body, true));  // built: it keeps the width it needs

  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (spin_->value() != v) spin_->setValue(v);
  });
  connect(spin_, &QSpinBox::valueChanged, this, [this](int v) {
    if (v > slider_->maximum()) slider_->setMaximum(std::min(kMaxDistance, v));
    if (slider_->value() != v) slider_->setValue(v);
    recompute();
  });
  connect(direction_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  // Model changes wait while the view is hidden; its own controls recompute at once.
  shown_ = new WhenShown(this, [this] { recompute(); });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    // The phasors read the pairs, and the ids only between the selected tokens.
    if (!parts.empty() && parts.within(ScenePart::Selection | ScenePart::Label) &&
        direction() != Direction::SelectedTokens)
      return;
    shown_->request();
  });
  connect(model_, &SceneModel::selectionChanged, this, [this] {
    if (direction() == Direction::SelectedTokens) shown_->request();
  });
  recompute();
}

void PhasorView::setDistance(int distance) {
  spin_->setValue(std::clamp(distance, 0, kMaxDistance));
}

Id3 PhasorView::delta() const {
  shown_->flush();
  return phasor_.delta;
}

bool PhasorView::dirty() const {
  return shown_->dirty();
}

int PhasorView::distance() const {
  return spin_->value();
}

void PhasorView::setDirection(Direction d) {
  direction_->setCurrentIndex(static_cast<int>(d));
}

PhasorView::Direction PhasorView::direction() const {
  return static_cast<Direction>(direction_->currentIndex());
}

void PhasorView::setDark(bool dark) {
  dark_ = dark;
  canvas_->setDark(dark);
  formulas_->setDark(dark);
}

QString phasorCaption(const Phasor& ph) {
  const auto plain = [](double v) {
    return QString::number(v, 'g', 6).replace(QLatin1Char('-'), QChar(0x2212));
  };
  return QObject::tr("Δ = (%1, %2, %3)   U(Δ) = %4   b(Δ) = %5")
      .arg(plain(ph.delta[0]), plain(ph.delta[1]), plain(ph.delta[2]))
      .arg(ph.decayBound, 0, 'f', 4)
      .arg(ph.bias, 0, 'f', 4);
}

QString PhasorView::caption() const {
  return phasorCaption(phasor_);
}

QString PhasorView::readout() const {
  return readout_->text();
}

void PhasorView::recompute() {
  const SceneMetrics& m = model_->metrics();
  Id3 delta{0, 0, 0};
  note_->hide();
  const bool selected = direction() == Direction::SelectedTokens;
  slider_->setEnabled(!selected);
  spin_->setEnabled(!selected);
  if (selected) {
    const long v = model_->selectedVisual();
    const std::vector<std::size_t> visual = m.ids.visualIndices();
    if (m.selectedToken >= 0 && v >= 0 && v < static_cast<long>(visual.size())) {
      delta = displacement(m.ids, static_cast<std::size_t>(m.selectedToken), visual[v]);
    } else {
      note_->setText(
          tr("Pick a visual token (click it in the 3-D view or the picture) to see the "
             "displacement from the selected text token; showing Δ = 0."));
      note_->show();
    }
  } else {
    delta = directionDisplacement(kDirectionNames[direction_->currentIndex()], spin_->value());
  }
  phasor_ = computePhasor(m.pairs, delta);
  const QString cap = caption();
  readout_->setText(cap);
  canvas_->setPhasor(phasor_, cap);
  if (selected) {
    formulas_->setFormulas(
        phasorFormulas(phasor_, model_->validScene().frequency.rotary, nullptr, 0.0, &m.pairs));
  } else {
    const AxisBias equal = biasAlongAxes(m.pairs, spin_->value());
    formulas_->setFormulas(phasorFormulas(phasor_, model_->validScene().frequency.rotary, &equal,
                                          spin_->value(), &m.pairs));
  }
  emit phasorChanged();
}

QImage PhasorView::renderImage(QSize size) const {
  QImage image(size, QImage::Format_RGB32);
  QPainter p(&image);
  paintPhasor(p, image.rect(), phasor_, dark_, caption());
  return image;
}

}  // namespace ropescope::ui
