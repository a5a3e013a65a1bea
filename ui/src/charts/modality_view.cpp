// The Modalities tab: a table of the modality pairs and their bar charts, rebuilt when the
// model's comparison (which computes the pairs) finishes; lazily while the tab is hidden.
#include "charts/modality_view.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "charts/chart_view.h"
#include "figures/figure_charts.h"
#include "model/scene_model.h"
#include "model/when_shown.h"
#include "style/metric_text.h"
#include "style/scrolling.h"

namespace ropescope::ui {

namespace {

// A bar chart's least height, and its height besides the bars (title, value axis, margins).
constexpr int kChartMinimumHeight = 160;
constexpr int kChartOverhead = 100;

QTableWidgetItem* cell(const QString& text, const QString& tip = {}) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  if (!tip.isEmpty()) item->setToolTip(tip);
  return item;
}

}  // namespace

ModalityView::ModalityView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  // In a scroll area: the tab asks for little height, so the attention dock under it has room.
  auto* body = new QWidget;
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  note_ = new QLabel;
  note_->setObjectName(QStringLiteral("modalityNote"));
  note_->setWordWrap(true);
  layout->addWidget(note_);
  table_ = new QTableWidget(0, 6);
  table_->setObjectName(QStringLiteral("modalityTable"));
  table_->setHorizontalHeaderLabels(
      {tr("from"), tr("to"), tr("from tokens"), tr("to tokens"), tr("PTD"), tr("bias spread")});
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  // Compact rows; room for the twelve pairs of four modalities without a scroll bar.
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  table_->setMaximumHeight(table_->horizontalHeader()->sizeHint().height() +
                           12 * (fontMetrics().height() + 6) + 4);
  table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  layout->addWidget(table_);
  ptdView_ = new ChartView(new QChart);
  ptdView_->setObjectName(QStringLiteral("modalityPtdChart"));
  biasView_ = new ChartView(new QChart);
  biasView_->setObjectName(QStringLiteral("modalityBiasChart"));
  for (ChartView* v : {ptdView_, biasView_}) {
    v->setRenderHint(QPainter::Antialiasing);
    v->setMinimumHeight(kChartMinimumHeight);  // the tab scrolls when the dock leaves less room
    layout->addWidget(v, 1);
  }
  outer->addWidget(scrolling(body, true));  // built: it keeps the width it needs
  shown_ = new WhenShown(this, [this] { refresh(); });
  connect(model_, &SceneModel::summariesChanged, shown_, &WhenShown::request);
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    // The modality table reads what the comparison reads: not the selection.
    if (!parts.empty() && !parts.touches(kComparisonParts)) return;
    shown_->request();
  });
  shown_->request();
}

void ModalityView::setDark(bool dark) {
  dark_ = dark;
  shown_->request();
}

void ModalityView::refresh() {
  const std::vector<ModalityPairMetrics>& rows = model_->modalityMetrics();
  const QString pending = model_->summariesPending() ? tr(" (updating\xe2\x80\xa6)") : QString();
  note_->setText(
      rows.empty()
          ? tr("The layout has one modality only: add audio (a40), an image or a video.") + pending
          : tr("PTD and bias spread from every token of one modality to the tokens of another, "
               "under the scene's design.") +
                pending);
  table_->setRowCount(static_cast<int>(rows.size()));
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const ModalityPairMetrics& r = rows[static_cast<std::size_t>(i)];
    const QString skipped = QString::fromStdString(r.skipped);
    table_->setItem(i, 0, cell(QLatin1String(tokenGroupName(r.groups.from))));
    table_->setItem(i, 1, cell(QLatin1String(tokenGroupName(r.groups.to))));
    table_->setItem(i, 2, cell(QString::number(r.nFrom)));
    table_->setItem(i, 3, cell(QString::number(r.nTo)));
    // Not computed is never shown as a number: "not computed" with the reason as its tooltip.
    const QString none = tr("not computed");
    table_->setItem(i, 4, cell(skipped.isEmpty() ? metricText(r.ptd) : none, skipped));
    table_->setItem(i, 5, cell(skipped.isEmpty() ? metricText(r.biasSpread) : none, skipped));
  }
  FigureOptions o;
  for (const bool ptd : {true, false}) {
    QChart* chart = figure::modalityBarsChart(rows, ptd, o).release();
    if (dark_) {
      // The live charts' look (charts_panel.cpp): the dark theme, the app's fonts.
      chart->setTheme(QChart::ChartThemeDark);
    }
    chart->setAnimationOptions(QChart::NoAnimation);
    ChartView* view = ptd ? ptdView_ : biasView_;
    // Every pair named: a line of the names' font per bar, on top of the title and the value
    // axis (Qt Charts drops names that would touch: 4 of 12 were named at 1366x768). The tab
    // scrolls rather than lose one.
    for (QAbstractAxis* axis : chart->axes())
      if (auto* names = qobject_cast<QBarCategoryAxis*>(axis)) {
        const int line = QFontMetrics(names->labelsFont()).height() + 2;
        view->setMinimumHeight(std::max(kChartMinimumHeight,
                                        kChartOverhead + static_cast<int>(names->count()) * line));
      }
    QChart* old = view->chart();
    view->setChart(chart);
    delete old;
  }
}

}  // namespace ropescope::ui
