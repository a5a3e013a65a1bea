#include "charts/charts_panel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetricsF>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <tuple>
#include <utility>

#include "charts/chart_view.h"
#include "figures/figure_charts.h"
#include "figures/zero_bar_labels.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"
#include "style/axis_colors.h"
#include "style/metric_text.h"
#include "teaching/formula_panel.h"

namespace ropescope::ui {

namespace {

constexpr const char* axisNames[3] = {"t", "h", "w"};

QString exact(double v) {
  return QString::number(v, 'g', 10);
}

// The narrowest a chart gets; narrower than two of these, the charts stack in one column.
// Their texts shrink and shorten to fit (fitText).
constexpr int kChartMinimumWidth = 210;

QChartView* viewFor(QChart* chart, QWidget* parent) {
  auto* view = new ChartView(chart, parent);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(kChartMinimumWidth, 200);
  return view;
}

// Runs `f` once the current event (a chart item's click) has returned: a chart item must not
// be rebuilt from inside its own handler.
void afterEvent(QObject* context, std::function<void()> f) {
  QMetaObject::invokeMethod(context, std::move(f), Qt::QueuedConnection);
}

// A left click on a row of a horizontal bar chart, on its bar, beside it or on its name: a bar
// of length 0 (Circle-RoPE's PTD, unordered) has nothing to hit, and Qt Charts reports clicks on
// bars only. Gives the row's category index; the click goes on to the view.
class RowClicks : public QObject {
 public:
  RowClicks(QChartView* view, QAbstractSeries* series, std::function<void(int)> clicked)
      : QObject(view), view_(view), series_(series), clicked_(std::move(clicked)) {
    view->viewport()->installEventFilter(this);
  }

 protected:
  bool eventFilter(QObject*, QEvent* event) override {
    if (event->type() != QEvent::MouseButtonRelease) return false;
    const auto* mouse = static_cast<QMouseEvent*>(event);
    if (mouse->button() != Qt::LeftButton) return false;
    QChart* chart = view_->chart();
    const QPointF at = chart->mapFromScene(view_->mapToScene(mouse->position().toPoint()));
    const QRectF plot = chart->plotArea();
    if (at.y() < plot.top() || at.y() > plot.bottom() || at.x() > plot.right() || at.x() < 0)
      return false;
    const long row = std::lround(chart->mapToValue(at, series_).y());
    if (auto* bars = qobject_cast<QAbstractBarSeries*>(series_);
        bars && !bars->barSets().isEmpty() && row >= 0 && row < bars->barSets()[0]->count())
      clicked_(static_cast<int>(row));
    return false;
  }

 private:
  QChartView* view_;
  QAbstractSeries* series_;
  std::function<void(int)> clicked_;
};

// Text sizes: a chart that is short of room shows smaller text, then shorter
// forms of its titles, and grows (its panel scrolls) before a label would be dropped or cut.
constexpr int kLargestPixels = 12;
constexpr int kSmallestPixels = 8;  // smaller does not read on a laptop screen

QFont withPixels(QFont font, int px) {
  font.setPixelSize(px);
  return font;
}

double textWidth(const QFont& font, const QString& text) {
  return QFontMetricsF(font).horizontalAdvance(text);
}

// One line of chart text as Qt Charts lays it out: the font's line and the text item's margin.
double lineHeight(int px) {
  return std::ceil(QFontMetricsF(withPixels(QFont(), px)).height()) + 3;
}

// The size of ticks and legend labels for a chart of `size`: the full size in a roomy chart.
int chartPixels(QSizeF size) {
  const double w = size.width();
  return w >= 320 ? kLargestPixels : w >= 270 ? 11 : w >= 230 ? 10 : 9;
}

// The longest of `forms` that fits `room` pixels, at the largest size from `px` down to the
// smallest readable one; the shortest form at the smallest size when none fits.
std::pair<QString, int> fitting(const QStringList& forms, const QFont& font, int px, double room) {
  for (const QString& form : forms)
    for (int p = px; p >= kSmallestPixels; --p)
      if (textWidth(withPixels(font, p), form) <= room) return {form, p};
  return {forms.isEmpty() ? QString() : forms.last(), kSmallestPixels};
}

}  // namespace

ChartsPanel::ChartsPanel(SceneModel* model, QWidget* parent)
    : QWidget(parent), model_(model), shown_(new WhenShown(this, [this] { catchUp(); })) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  staleBanner_ =
      new QLabel(tr("input invalid \xe2\x80\x94 charts show the last valid scene"), this);
  staleBanner_->setAlignment(Qt::AlignCenter);
  staleBanner_->setStyleSheet(
      QStringLiteral("background: #6b6b6b; color: #f0f0f0; padding: 3px; font-weight: bold;"));
  staleBanner_->hide();
  column->addWidget(staleBanner_);
  // The charts and their formulas scroll when the window is too small for them (a laptop
  // screen with the attention dock open), rather than make the window larger than the screen.
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  // Up and down only: a chart cut at the right edge would hide its labels.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scrollBarWidth_ = scroll->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 4;
  scroll->setMinimumWidth(kChartMinimumWidth + scrollBarWidth_);
  auto* content = new QWidget;
  auto* contentColumn = new QVBoxLayout(content);
  contentColumn->setContentsMargins(0, 0, 0, 0);
  contentColumn->setSpacing(2);
  grid_ = new QGridLayout;
  grid_->setSpacing(2);
  contentColumn->addLayout(grid_, 1);
  scroll->setWidget(content);
  column->addWidget(scroll, 1);

  buildDecayChart();
  buildDesignBars();
  buildProfileChart();
  buildWavelengthChart();
  arrange(2);
  // What each chart plots, with the current numbers.
  formulas_ = new FormulaPanel(this);
  formulas_->setObjectName(QStringLiteral("formulaPanel"));
  formulas_->follow(model_, &chartsFormulas);
  contentColumn->addWidget(formulas_);

  applyColors();
  connect(model_, &SceneModel::changed, this, &ChartsPanel::onSceneChanged);
  connect(model_, &SceneModel::selectionChanged, this, [this] { owe(DirtySelection); });
  connect(model_, &SceneModel::summariesChanged, this, [this] { owe(DirtyDesigns); });
  refresh();
}

// Decay bound per axis.
void ChartsPanel::buildDecayChart() {
  decayChart_ = makeChart(tr("Decay bound U(\xce\xb4) per axis"));
  // The exported figure's builder; the live chart adds hover and text forms that fit its size.
  decay_ = figure::addDecayParts(decayChart_, {true, true, true}, true, look());
  setAxisTitleForms(decay_.x, {tr("\xce\xb4 (positions)"), tr("\xce\xb4")});
  setAxisTitleForms(
      decay_.y, {tr("U(\xce\xb4) (logit units)"), tr("U(\xce\xb4) (logit)"), tr("U(\xce\xb4)")});
  for (int a = 0; a < 3; ++a) {
    connect(decay_.axis[a], &QLineSeries::hovered, this, [this, a](const QPointF& p, bool on) {
      if (!on) return;
      const auto& curve = model_->metrics().decayAxis[a];
      const long d = std::lround(p.x());
      if (d < 0 || d >= static_cast<long>(curve.size())) return;
      QToolTip::showText(QCursor::pos(), tr("axis %1, \xce\xb4 = %2\nU = %3")
                                             .arg(QLatin1String(axisNames[a]))
                                             .arg(d)
                                             .arg(exact(curve[d])));
    });
  }
  connect(decay_.stream, &QLineSeries::hovered, this, [this](const QPointF& p, bool on) {
    if (!on) return;
    const auto& curve = model_->metrics().decayStream;
    const long d = std::lround(p.x());
    if (d < 0 || d >= static_cast<long>(curve.size())) return;
    QToolTip::showText(QCursor::pos(),
                       tr("t = h = w, \xce\xb4 = %1\nU = %2").arg(d).arg(exact(curve[d])));
  });
  // A rope scaling's original context length, where it lies inside the distances drawn.
  originalLength_ = new QLineSeries;
  originalLength_->setName(tr("original length"));
  decayChart_->addSeries(originalLength_);
  originalLength_->attachAxis(decay_.x);
  originalLength_->attachAxis(decay_.y);
  cells_.push_back(withNote(viewFor(decayChart_, this), decayNote_, QStringLiteral("decayNote")));
}

QWidget* ChartsPanel::withNote(QWidget* view, QLabel*& note, const QString& name) {
  // The note goes in the grid's row under its chart (arrange): a chart in a wrapping widget
  // was given less height by the grid, and the profile chart then dropped tick labels.
  note = new QLabel(this);
  note->setObjectName(name);
  note->setWordWrap(true);
  note->setTextInteractionFlags(Qt::TextSelectableByMouse);
  note->setContentsMargins(4, 1, 4, 2);
  note->hide();
  notes_[view] = note;
  return view;
}

// PTD and bias spread of every design: click a bar to switch to that design.
void ChartsPanel::buildDesignBars() {
  auto* bars = new QWidget(this);
  auto* barsColumn = new QVBoxLayout(bars);
  barsColumn->setContentsMargins(0, 0, 0, 0);
  barsColumn->setSpacing(0);
  auto makeBars = [&](const QString& title, const QString& name, QChart*& chart,
                      QAbstractBarSeries*& series, QBarSet*& set, QBarCategoryAxis*& x,
                      QValueAxis*& y, bool ptd) {
    chart = makeChart(title);
    chart->legend()->hide();
    series = new QHorizontalBarSeries;
    set = new QBarSet(name);
    series->append(set);
    series->setBarWidth(0.75);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsPrecision(kMetricDigits);  // the labels read as metricText writes them
    chart->addSeries(series);
    x = new QBarCategoryAxis;
    x->setTruncateLabels(false);  // design names are short; eliding them hides which is which
    y = new QValueAxis;
    // No axis title: the chart's title names the quantity, and the nine bars need the height.
    // Short tick labels ("0.02", not "0.0200"), so that a narrow panel does not elide them.
    y->setLabelFormat(QStringLiteral("%.2g"));
    chart->addAxis(x, Qt::AlignLeft);
    chart->addAxis(y, Qt::AlignBottom);
    series->attachAxis(x);
    series->attachAxis(y);
    figure::ZeroBarLabels::attach(chart, series, set);  // Qt labels no bar of length 0
    connect(series, &QAbstractBarSeries::hovered, this, [this, ptd](bool on, int index, QBarSet*) {
      const auto& all = model_->designSummaries();
      if (!on || index < 0 || index >= static_cast<int>(all.size())) return;
      const auto& d = all[index];
      // The comparison gives every other design its default parameters under the scene's
      // frequency plan (compareDesigns); the design box switches to the design's own plan, so
      // the hover says which plan the bar used.
      const Scene& scene = model_->validScene();
      const bool current = d.design == scene.design;
      QToolTip::showText(
          QCursor::pos(),
          tr("%1 (%2)\n%3 = %4\n%5")
                  .arg(QString::fromStdString(d.title),
                       current ? tr("the scene's design and parameters")
                               : tr("default parameters, this scene's frequency plan %1")
                                     .arg(QString::fromStdString(scene.frequency.plan)),
                       ptd ? tr("PTD") : tr("bias spread"),
                       ptd ? metricText(d.ptd, d.ptdUndefined)
                           : metricText(d.biasSpread, d.biasUndefined),
                       current ? tr("the design shown") : tr("click to switch to this design")) +
              (ptd && scene.frequency.rope.active()
                   ? tr("\nPTD is unchanged by the rope scaling: it reads the ids only")
                   : QString()));
    });
    auto* view = viewFor(chart, bars);
    new RowClicks(view, series, [this](int index) {
      const auto& all = model_->designSummaries();
      if (index < 0 || index >= static_cast<int>(all.size())) return;
      const std::string name = all[index].design;
      if (name == model_->scene().design) return;
      // Not from inside the bar's own mouse handler: the edit refreshes every chart, and Qt
      // Charts deletes a bar item whose set changes size while that item's event still runs.
      afterEvent(this, [this, name] {
        if (name == model_->scene().design) return;
        model_->chooseDesign(name, false);
      });
    });
    view->setObjectName(ptd ? QStringLiteral("ptdBarsChart") : QStringLiteral("biasBarsChart"));
    view->setMinimumHeight(150);
    barsColumn->addWidget(view);
    // Qt Charts drops every other category label when they overlap (a short panel showed four
    // of nine names): the labels' size follows the room each bar has, and the chart keeps the
    // height that nine names need at the smallest size.
    connect(chart, &QChart::plotAreaChanged, this,
            [this, chart, x, set, view] { fitBarLabels(chart, x, set, view); });
    (ptd ? ptdView_ : biasView_) = view;
  };
  makeBars(tr("PTD of every design (this layout)"), tr("PTD"), ptdChart_, ptdSeries_, ptdSet_,
           ptdX_, ptdY_, true);
  makeBars(tr("Bias spread of every design"), tr("bias spread"), biasChart_, biasSeries_, biasSet_,
           biasX_, biasY_, false);
  cells_.push_back(bars);
}

// The selected text token's distance and bias over the visual tokens.
void ChartsPanel::buildProfileChart() {
  // The same builder as the exported figure's; the live chart adds the picked-token marker,
  // hover, click and text forms that fit its size.
  profileChart_ = makeChart(tr("Selected text token over the visual tokens"));
  profile_ = figure::addProfileParts(profileChart_, look());
  setAxisTitleForms(profile_.x, {tr("visual token index"), tr("visual token")});
  setAxisTitleForms(profile_.distanceY, {tr("distance d (positions)"), tr("distance d"), tr("d")});
  setAxisTitleForms(profile_.biasY, {tr("bias b (logit)"), tr("bias b"), tr("b")});
  marker_ = new QScatterSeries;
  marker_->setName(tr("picked"));
  marker_->setMarkerSize(11);
  profileChart_->addSeries(marker_);
  marker_->attachAxis(profile_.x);
  marker_->attachAxis(profile_.distanceY);
  auto profileTip = [this](const QPointF& p, bool on) {
    if (!on) return;
    const auto& m = model_->metrics();
    const long i = std::lround(p.x());
    if (i < 0 || i >= static_cast<long>(m.selectedDistance.size())) return;
    QToolTip::showText(QCursor::pos(), tr("visual token %1\nd = %2\nb = %3\nclick to pick it")
                                           .arg(i)
                                           .arg(exact(m.selectedDistance[i]))
                                           .arg(exact(m.selectedBias[i])));
  };
  auto profileClick = [this](const QPointF& p) {
    const long visual = std::lround(p.x());
    afterEvent(this, [this, visual] { model_->setSelectedVisual(visual); });
  };
  for (QLineSeries* curve : {profile_.distance, profile_.bias}) {
    connect(curve, &QLineSeries::hovered, this, profileTip);
    connect(curve, &QLineSeries::clicked, this, profileClick);
  }
  profileView_ = viewFor(profileChart_, this);
  cells_.push_back(profileView_);
  // A wider or narrower plot has other pixel columns: the curves are decimated for them again
  // (after the layout that changed them, not inside it).
  connect(profileChart_, &QChart::plotAreaChanged, this, [this] {
    if (redrawQueued_ || profileColumns() == drawnColumns_) return;
    redrawQueued_ = true;
    afterEvent(this, [this] {
      redrawQueued_ = false;
      if (profileColumns() != drawnColumns_) owe(DirtyProfile);
    });
  });
}

// Wavelength per pair.
void ChartsPanel::buildWavelengthChart() {
  waveChart_ = makeChart(tr("Wavelength 2\xcf\x80/\xce\xb8 per pair"));
  // The exported figure's builder; the live chart adds hover and text forms that fit its size.
  wave_ = figure::addWavelengthParts(waveChart_, {true, true, true, true}, look());
  setAxisTitleForms(wave_.x, {tr("pair index p"), tr("pair p")});
  setAxisTitleForms(
      wave_.y, {tr("wavelength (positions, log)"), tr("wavelength (log)"), tr("\xce\xbb (log)")});
  for (int a = 0; a < 4; ++a) {
    connect(wave_.slot[a], &QScatterSeries::hovered, this, [this](const QPointF& p, bool on) {
      if (!on) return;
      const auto& w = model_->metrics().wavelengths;
      const long i = std::lround(p.x());
      if (i < 0 || i >= static_cast<long>(w.size())) return;
      QToolTip::showText(QCursor::pos(),
                         tr("pair %1 (axis %2)\n\xce\xb8 = %3\nwavelength = %4")
                             .arg(i)
                             .arg(QLatin1String(axisName(w[i].axis)))
                             .arg(exact(w[i].theta))
                             .arg(w[i].wavelength ? exact(*w[i].wavelength) : tr("none (NoPE)")));
    });
  }
  cells_.push_back(withNote(viewFor(waveChart_, this), ropeCounts_, QStringLiteral("ropeCounts")));
}

void ChartsPanel::arrange(int columns) {
  if (columns == columns_) return;
  columns_ = columns;
  for (QWidget* cell : cells_) grid_->removeWidget(cell);
  for (auto [cell, note] : notes_.asKeyValueRange()) grid_->removeWidget(note);
  // Each row of charts, then a row for their notes (empty, and so no height, without one).
  const int rows = (static_cast<int>(cells_.size()) + columns - 1) / columns;
  for (int i = 0; i < static_cast<int>(cells_.size()); ++i) {
    QWidget* cell = cells_[static_cast<std::size_t>(i)];
    grid_->addWidget(cell, 2 * (i / columns), i % columns);
    if (QLabel* note = notes_.value(cell))
      grid_->addWidget(note, 2 * (i / columns) + 1, i % columns);
  }
  for (int r = 0; r < 8; ++r) grid_->setRowStretch(r, r % 2 == 0 && r / 2 < rows ? 1 : 0);
  for (int c = 0; c < 2; ++c) grid_->setColumnStretch(c, c < columns ? 1 : 0);
}

void ChartsPanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  // Two charts side by side while each gets its minimum width; one above the other (the tab
  // scrolls) when the tab is narrower, e.g. beside the tour on a laptop screen.
  arrange(width() >= 2 * kChartMinimumWidth + 2 + scrollBarWidth_ ? 2 : 1);
}

QChart* ChartsPanel::makeChart(const QString& title) {
  auto* chart = new QChart;
  chart->setTitle(title);
  chart->setAnimationOptions(QChart::NoAnimation);  // deterministic grabs, instant feedback
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->legend()->setAlignment(Qt::AlignTop);
  // Every size change refits the texts; what is chosen depends on the chart's size alone, so
  // the relayout a new font causes chooses the same again.
  connect(chart, &QChart::plotAreaChanged, this, [this, chart] { fitText(chart); });
  return chart;
}

void ChartsPanel::setTitleForms(QChart* chart, const QStringList& forms) {
  titleForms_[chart] = forms;
  // A chart not laid out yet (a hidden tab) has no size to fit: the full form until it has.
  if (chart->size().isEmpty()) chart->setTitle(forms.value(0));
  fitText(chart);
}

void ChartsPanel::setAxisTitleForms(QAbstractAxis* axis, const QStringList& forms) {
  axisTitleForms_[axis] = forms;
  axis->setTitleText(forms.value(0));
}

void ChartsPanel::fitText(QChart* chart) {
  const QSizeF size = chart->size();
  if (size.isEmpty()) return;
  const int px = chartPixels(size);
  const QFont legendFont = withPixels(chart->legend()->font(), px);
  if (chart->legend()->font() != legendFont) chart->legend()->setFont(legendFont);
  // An axis title runs along its side of the plot area (Qt Charts cuts it there).
  const QRectF plot = chart->plotArea();
  // Qt Charts gives the vertical axes together under half the chart's width and cuts their
  // tick labels beyond it: a narrow chart with an axis on each side leaves their titles out
  // (its legend names both curves) so that the numbers read in full.
  int vertical = 0;
  for (QAbstractAxis* axis : chart->axes()) vertical += axis->orientation() == Qt::Vertical;
  const bool verticalTitles = vertical < 2 || size.width() >= 330;
  for (QAbstractAxis* axis : chart->axes()) {
    if (axis->orientation() == Qt::Vertical && axis->isTitleVisible() != verticalTitles &&
        axisTitleForms_.contains(axis))
      axis->setTitleVisible(verticalTitles);
    if (!qobject_cast<QBarCategoryAxis*>(axis)) {
      const QFont labels = withPixels(axis->labelsFont(), px);
      if (axis->labelsFont() != labels) axis->setLabelsFont(labels);
    }
    // A log axis labels every power of its base: fewer labels (base 100, 1000, ...) when the
    // decades would not fit one above the other (Qt Charts would hide every other one).
    if (auto* log = qobject_cast<QLogValueAxis*>(axis); log && log->min() > 0) {
      const double decades = std::log10(log->max() / log->min());
      const int fit = std::max(2, static_cast<int>(plot.height() / lineHeight(px)));
      const int step = std::max(1, static_cast<int>(std::ceil(decades / (fit - 1) - 1e-9)));
      const double base = std::pow(10.0, step);
      if (log->base() != base) log->setBase(base);
    }
    const QStringList forms = axisTitleForms_.value(axis);
    if (forms.isEmpty()) continue;
    const auto [text, p] =
        fitting(forms, axis->titleFont(), px,
                (axis->orientation() == Qt::Vertical ? plot.height() : plot.width()) - 4);
    const QFont font = withPixels(axis->titleFont(), p);
    if (axis->titleFont() != font) axis->setTitleFont(font);
    if (axis->titleText() != text) axis->setTitleText(text);
  }
  const QStringList forms = titleForms_.value(chart);
  if (!forms.isEmpty()) {
    const auto [text, p] = fitting(forms, chart->titleFont(), kLargestPixels, size.width() - 30);
    const QFont font = withPixels(chart->titleFont(), p);
    if (chart->titleFont() != font) chart->setTitleFont(font);
    if (chart->title() != text) chart->setTitle(text);
  }
}

void ChartsPanel::fitBarLabels(QChart* chart, QBarCategoryAxis* axis, QBarSet* set,
                               QChartView* view) {
  const int n = std::max(1, static_cast<int>(axis->count()));
  const QSizeF size = chart->size();
  // The chart's height less its plot area: the title, the value axis' ticks and the margins
  // (the category labels' size changes the plot's width, not its height).
  const double overhead = size.height() - chart->plotArea().height();
  if (size.isEmpty() || overhead <= 0) return;
  int px = std::min(chartPixels(size), kLargestPixels);
  while (px > kSmallestPixels && n * lineHeight(px) > chart->plotArea().height()) --px;
  const QFont font = withPixels(axis->labelsFont(), px);
  if (axis->labelsFont() != font) axis->setLabelsFont(font);
  if (set->labelFont() != font) set->setLabelFont(font);
  // The height every name needs at the smallest size: the panel scrolls rather than drop one.
  const int need = static_cast<int>(std::ceil(overhead + n * lineHeight(kSmallestPixels)));
  if (view->minimumHeight() < need) view->setMinimumHeight(need);
}

figure::ChartLook ChartsPanel::look() const {
  return dark_ ? figure::ChartLook::ScreenDark : figure::ChartLook::ScreenLight;
}

void ChartsPanel::setDark(bool dark) {
  dark_ = dark;
  applyColors();
  formulas_->setDark(dark);
}

void ChartsPanel::applyColors() {
  for (QChart* c : {decayChart_, ptdChart_, biasChart_, profileChart_, waveChart_}) {
    c->setTheme(dark_ ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    c->setBackgroundRoundness(0);
  }
  // setTheme resets series colours: the axis colours must be re-applied after it.
  figure::colorDecay(decay_);
  QPen original(dark_ ? QColor(200, 200, 200) : QColor(90, 90, 90));
  original.setWidthF(1.2);
  original.setStyle(Qt::DashDotDotLine);
  originalLength_->setPen(original);
  for (QLegendMarker* mk : decayChart_->legend()->markers(originalLength_)) mk->setVisible(false);
  figure::colorWavelengths(wave_, look());
  const QColor bar = dark_ ? QColor(120, 140, 170) : QColor(150, 165, 190);
  const QColor current = dark_ ? QColor(255, 214, 70) : QColor(215, 40, 140);
  for (QBarSet* set : {ptdSet_, biasSet_}) {
    set->setColor(bar);
    set->setBorderColor(bar);
    set->setSelectedColor(current);
    set->setLabelColor(dark_ ? QColor(235, 235, 235) : QColor(30, 30, 30));
    // A bar selected before keeps the old selected colour until it is selected again.
    set->deselectAllBars();
    if (highlighted_ >= 0) set->selectBar(highlighted_);
  }
  // setTheme resets the fonts too.
  for (QChart* c : {decayChart_, ptdChart_, biasChart_, profileChart_, waveChart_}) fitText(c);
  fitBarLabels(ptdChart_, ptdX_, ptdSet_, ptdView_);
  fitBarLabels(biasChart_, biasX_, biasSet_, biasView_);
  figure::colorProfile(profile_, look());
  marker_->setColor(current);
  marker_->setBorderColor(dark_ ? Qt::white : Qt::black);
}

void ChartsPanel::owe(unsigned what) {
  dirty_ |= what;
  shown_->request();  // catchUp() now, or when the panel is next shown
}

void ChartsPanel::catchUp() {
  const unsigned dirty = std::exchange(dirty_, 0u);
  if (dirty & DirtyAll) {
    refresh();  // the profile, the designs and the selection with the rest
    return;
  }
  if (dirty & DirtyDesigns) refreshDesigns();
  if (dirty & DirtyProfile) {
    staleBanner_->setVisible(model_->isStale());
    refreshProfile();
  } else if (dirty & DirtySelection) {
    refreshSelection();
  }
}

void ChartsPanel::onSceneChanged(SceneChanges parts) {
  // A new selection: the decay curves, the comparison, the wavelengths and the formulas read
  // none of it, only the profile changes.
  const bool selectionOnly = !parts.empty() && parts.within(ScenePart::Selection);
  owe(selectionOnly ? DirtyProfile : DirtyAll);
}

void ChartsPanel::refresh() {
  ++refreshes_;
  const SceneMetrics& m = model_->metrics();
  const bool stale = model_->isStale();
  staleBanner_->setVisible(stale);

  // Decay
  figure::plotDecay(decay_, m.decayDistance, m.decayAxis, m.decayStream, look(),
                    m.decayAxisUnscaled);
  refreshScalingNotes();
  // Only a layout with audio has the curve: elsewhere it stays out of the legend too.
  const bool audio = !m.decayStream.empty();
  decay_.stream->setVisible(audio);
  for (QLegendMarker* mk : decayChart_->legend()->markers(decay_.stream)) mk->setVisible(audio);
  // Four names fit a laptop's chart only in their short form: "t", ..., "t = h = w".
  for (int a = 0; a < 3; ++a)
    decay_.axis[a]->setName(audio ? QLatin1String(axisNames[a])
                                  : tr("along %1").arg(QLatin1String(axisNames[a])));
  decay_.stream->setName(audio ? tr("t = h = w (audio)") : figure::streamCurveName());

  refreshDesigns();

  // Wavelengths
  const figure::WavelengthPoints wp = figure::wavelengthPoints(m);
  const int nope = wp.nope;
  figure::plotWavelengths(wave_, wp, m.wavelengths.size(), look());
  // Only VRoPE's plan has pairs on the fourth map: elsewhere its series stays out of the legend.
  const bool mixed = !wp.perAxis[3].isEmpty();
  wave_.slot[3]->setVisible(mixed);
  for (QLegendMarker* mk : waveChart_->legend()->markers(wave_.slot[3])) mk->setVisible(mixed);
  setTitleForms(
      waveChart_,
      nope > 0 ? QStringList{tr("Wavelength 2\xcf\x80/\xce\xb8 per pair (%1 NoPE pairs)").arg(nope),
                             tr("Wavelength per pair (%1 NoPE)").arg(nope),
                             tr("Wavelength (%1 NoPE)").arg(nope)}
               : QStringList{tr("Wavelength 2\xcf\x80/\xce\xb8 per pair"),
                             tr("Wavelength per pair"), tr("Wavelength")});
  refreshProfile();
}

void ChartsPanel::refreshScalingNotes() {
  const SceneMetrics& m = model_->metrics();
  const RopeScaling& rope = model_->validScene().frequency.rope;
  const bool scaled = m.pairs.scaled();
  // The original context length: a grey line where it lies inside the distances drawn, else
  // the note says where it is.
  const std::optional<double> original =
      scaled ? ropeParam(rope, "original_max_position_embeddings") : std::nullopt;
  const double last = m.decayDistance.empty() ? 0.0 : m.decayDistance.back();
  const bool inside = original && *original <= last;
  QList<QPointF> line;
  if (inside) line = {QPointF(*original, decay_.y->min()), QPointF(*original, decay_.y->max())};
  originalLength_->replace(line);
  originalLength_->setVisible(inside);
  for (QLegendMarker* mk : decayChart_->legend()->markers(originalLength_)) mk->setVisible(false);
  if (scaled) {
    QString note = tr("Faint: before the %1 scaling.").arg(QString::fromStdString(rope.type));
    if (original)
      note += QLatin1Char(' ') +
              (inside ? tr("Dash-dot line: the original length %1.").arg(*original, 0, 'f', 0)
                      : tr("The original length %1 lies beyond \xce\xb4 = %2.")
                            .arg(*original, 0, 'f', 0)
                            .arg(last, 0, 'f', 0));
    decayNote_->setText(note);
  }
  decayNote_->setVisible(scaled);
  // Per axis, what the scaling did to its pairs (core's scalingCounts).
  if (scaled)
    ropeCounts_->setText(tr("Rings: before scaling. ") + figure::scalingCountsText(m.pairs));
  ropeCounts_->setVisible(scaled);
}

QString ChartsPanel::scalingCountsText() {
  catchUp();
  return ropeCounts_->isHidden() ? QString() : ropeCounts_->text();
}

QString ChartsPanel::decayNoteText() {
  catchUp();
  return decayNote_->isHidden() ? QString() : decayNote_->text();
}

bool ChartsPanel::marksOriginalLength() {
  catchUp();
  return originalLength_->isVisible() && originalLength_->count() == 2;
}

void ChartsPanel::refreshProfile() {
  const SceneMetrics& m = model_->metrics();
  drawProfile();
  const int text = model_->validScene().selectedText;
  const QString missing = QString::fromStdString(missingTokensText(m.ptd.nText, m.ptd.nVisual));
  setTitleForms(
      profileChart_,
      m.selectedToken < 0 ? QStringList{tr("No text token to profile"), tr("No text token")}
      : missing.isEmpty() ? QStringList{tr("Text token %1 (#%2) to every visual token")
                                            .arg(text)
                                            .arg(m.selectedToken),
                                        tr("Text token %1 (#%2)").arg(text).arg(m.selectedToken),
                                        tr("Text token %1").arg(text)}
                          : QStringList{tr("Text token %1: n/a (%2)").arg(text).arg(missing),
                                        tr("Text token %1: n/a").arg(text)});
  refreshSelection();
}

void ChartsPanel::refreshDesigns() {
  const auto& all = model_->designSummaries();
  const std::string& current = model_->validScene().design;
  // The exported figure's bars (figure_charts.h), values changed in place.
  const figure::DesignBars ptd = figure::designBars(all, current, true);
  const figure::DesignBars spread = figure::designBars(all, current, false);
  highlighted_ = ptd.highlighted;
  for (auto [set, bars, x, y, chart, view] :
       {std::tuple{ptdSet_, &ptd, ptdX_, ptdY_, ptdChart_, ptdView_},
        std::tuple{biasSet_, &spread, biasX_, biasY_, biasChart_, biasView_}}) {
    const QList<qreal>& values = bars->values;
    // Values change in place: removing and appending bars deletes their graphics items, and
    // a refresh can run while one of them is still handling a hover or a click.
    // A new design renames two categories (the marked one), in place too.
    if (set->count() == values.size() && x->count() == bars->names.size()) {
      for (qsizetype i = 0; i < values.size(); ++i)
        if (set->at(i) != values[i]) set->replace(i, values[i]);
      const QStringList shown = x->categories();
      for (qsizetype i = 0; i < shown.size(); ++i)
        if (shown[i] != bars->names[i]) x->replace(shown[i], bars->names[i]);
    } else {
      set->remove(0, set->count());
      set->append(values);
      x->clear();
      x->append(bars->names);
    }
    y->setRange(0, bars->top > 0 ? bars->top * 1.25 : 1.0);  // room for the value labels
    y->applyNiceNumbers();
    fitBarLabels(chart, x, set, view);
    set->deselectAllBars();
    if (highlighted_ >= 0) set->selectBar(highlighted_);
  }

  const QString pending = model_->summariesPending() ? tr(" (updating\xe2\x80\xa6)") : QString();
  // With no text or no visual token every design's value is undefined: n/a and why, no labels.
  const std::string& ptdUndefined = ptd.undefined;
  const std::string& biasUndefined = spread.undefined;
  ptdSeries_->setLabelsVisible(ptdUndefined.empty());
  biasSeries_->setLabelsVisible(biasUndefined.empty());
  // The short form: the full reason is in the hover text, the formulas and the status bar.
  const auto undefinedText = [&all](const std::string& why, bool ptd) {
    return why.empty() ? QString()
                       : QStringLiteral(": ") + figure::designBarsUndefinedText(all, ptd);
  };
  // Undefined: the n/a takes the place of "(this layout)", so that the narrow panel shows it.
  const QString ptdNa = undefinedText(ptdUndefined, true),
                biasNa = undefinedText(biasUndefined, false);
  if (ptdUndefined.empty())
    setTitleForms(ptdChart_, {tr("PTD of every design (this layout)") + pending,
                              tr("PTD of every design") + pending, tr("PTD") + pending});
  else
    setTitleForms(ptdChart_,
                  {tr("PTD of every design") + ptdNa + pending, tr("PTD") + ptdNa + pending});
  setTitleForms(biasChart_, {tr("Bias spread of every design") + biasNa + pending,
                             tr("Bias spread") + biasNa + pending});
}

void ChartsPanel::refreshSelection() {
  const auto& m = model_->metrics();
  const long v = model_->selectedVisual();
  marker_->clear();
  marked_ = -1;
  if (v >= 0 && v < static_cast<long>(m.selectedDistance.size())) {
    marker_->append(QPointF(static_cast<double>(v), m.selectedDistance[v]));
    marked_ = v;
  }
}

void ChartsPanel::drawProfile() {
  ++profileDraws_;
  drawnColumns_ = profileColumns();
  const figure::ProfilePoints pp = figure::profilePoints(model_->metrics(), drawnColumns_);
  figure::plotProfile(profile_, pp, look());
  profileCount_ = static_cast<int>(pp.count);
}

int ChartsPanel::profileColumns() const {
  // The plot's width in device pixels; before the chart is laid out, the widest screen's (a
  // plot is never wider), so that the first draw is already the same to the pixel.
  const double dpr = profileView_ ? profileView_->devicePixelRatioF() : 1.0;
  const double plot = profileChart_->plotArea().width();
  if (plot >= 1) return static_cast<int>(std::ceil(plot * dpr));
  int widest = 1;
  for (const QScreen* screen : QGuiApplication::screens())
    widest = std::max(widest, static_cast<int>(std::ceil(screen->geometry().width() *
                                                         screen->devicePixelRatio())));
  return widest;
}

int ChartsPanel::profilePointCount() {
  catchUp();
  return profileCount_;
}
int ChartsPanel::drawnProfilePoints() const {
  return static_cast<int>(profile_.distance->count() + profile_.bias->count());
}
long ChartsPanel::markedVisual() {
  catchUp();
  return marked_;
}
int ChartsPanel::highlightedDesign() {
  catchUp();
  return highlighted_;
}
bool ChartsPanel::showsStaleBanner() {
  catchUp();
  return !staleBanner_->isHidden();
}
FormulaPanel* ChartsPanel::formulas() {
  catchUp();
  return formulas_;
}

}  // namespace ropescope::ui
