#include "picture/picture_view.h"

#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"
#include "ropescope/pixel_map_report.h"
#include "ropescope/token_groups.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

#include "model/scene_model.h"
#include "model/segment_names.h"
#include "model/when_shown.h"
#include "picture/picture_canvas.h"
#include "picture/picture_source.h"
#include "platform/file_dialogs.h"
#include "platform/file_output.h"

namespace ropescope::ui {

// The tab shows picture files and InternVL tiled pictures (which have no file: their tiles on a
// blank picture of their size).
bool shownOnPictureTab(const Segment& seg) {
  return seg.source.isPicture() || (seg.kind == SegmentKind::Image && seg.tiles.tiled());
}

PictureView::PictureView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setObjectName(QStringLiteral("pictureView"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  segments_ = new QComboBox(this);
  segments_->setObjectName(QStringLiteral("pictureSegment"));
  segments_->setToolTip(tr("Which picture of the layout to show"));
  // The picture's name may be cut short: the bar (with Export) fits the tab at 1366 px.
  segments_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  segments_->setMinimumContentsLength(6);
  overlayBox_ = new QComboBox(this);
  overlayBox_->setObjectName(QStringLiteral("pictureOverlay"));
  overlayBox_->addItems({tr("grid only"), tr("distance"), tr("positional bias"), tr("attention")});
  overlayBox_->setToolTip(
      tr("Heat map of the selected text token's distance or RoPE positional bias to each patch, "
         "or the attention dock's query row"));
  exportButton_ = new QToolButton(this);
  exportButton_->setObjectName(QStringLiteral("pictureExport"));
  exportButton_->setText(tr("Export"));
  exportButton_->setToolTip(
      tr("The token \xe2\x86\x92 pixel map as CSV or JSON (as ropescope pixels writes it), or the "
         "picture with its overlay as PNG"));
  exportButton_->setPopupMode(QToolButton::InstantPopup);
  auto* exportMenu = new QMenu(exportButton_);
  exportMenu->addAction(tr("Pixel map as CSV or JSON\xe2\x80\xa6"), this,
                        &PictureView::askExportMap);
  exportMenu->addAction(tr("Picture with overlay as PNG\xe2\x80\xa6"), this,
                        &PictureView::askExportOverlay);
  exportButton_->setMenu(exportMenu);
  bar->addWidget(segments_, 1);
  bar->addWidget(new QLabel(tr("Map"), this));
  bar->addWidget(overlayBox_);
  bar->addWidget(exportButton_);
  column->addLayout(bar);
  captionLabel_ = new QLabel(this);
  captionLabel_->setWordWrap(true);
  column->addWidget(captionLabel_);
  canvas_ = new PictureCanvas(this);
  column->addWidget(canvas_, 1);
  hoverLabel_ = new QLabel(this);
  hoverLabel_->setObjectName(QStringLiteral("pictureHover"));
  hoverLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Two lines always, and never wider than the tab: the canvas does not move under the pointer
  // as the text changes (the tooltip has the same text whole).
  hoverLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  hoverLabel_->setFixedHeight(2 * hoverLabel_->fontMetrics().lineSpacing() + 4);
  hoverLabel_->setText(tr("Point at a token to see its pixels"));
  column->addWidget(hoverLabel_);
  connect(canvas_, &PictureCanvas::visualClicked, model_, &SceneModel::setSelectedVisual);
  connect(canvas_, &PictureCanvas::hoverChanged, this, [this](int cell, const QString& text) {
    hoverLabel_->setText(cell < 0 ? tr("Point at a token to see its pixels") : text);
  });
  {
    const QSignalBlocker block(overlayBox_);
    overlayBox_->setCurrentIndex(static_cast<int>(overlay_));
  }

  connect(segments_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) showSegment(segments_->itemData(i).toInt());
  });
  connect(overlayBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setOverlay(static_cast<PictureOverlay>(i)); });
  shown_ = new WhenShown(this, [this] { refresh(); });
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    // The segment list reads the layout only; the overlay the ids and the selection.
    if (parts.touches(ScenePart::Layout | ScenePart::ImageGrid)) {
      mapStale_ = true;
      refreshSegments();
    }
    shown_->request();  // hidden (another tab): dirty until shown
  });
  connect(model_, &SceneModel::selectionChanged, shown_, &WhenShown::request);
  refreshSegments();
  refresh();
}

void PictureView::refreshSegments() {
  const Layout& layout = model_->validScene().layout;
  const QSignalBlocker block(segments_);
  segments_->clear();
  int keep = -1;
  for (int s = 0; s < static_cast<int>(layout.segments.size()); ++s) {
    if (!shownOnPictureTab(layout.segments[s])) continue;
    segments_->addItem(visualSegmentName(layout, static_cast<std::size_t>(s)), s);
    if (s == segment_ || keep < 0) keep = s;
  }
  segment_ = keep;
  segments_->setCurrentIndex(segments_->findData(segment_));
  segments_->setEnabled(segments_->count() > 1);
}

void PictureView::showSegment(int segment) {
  const Layout& layout = model_->validScene().layout;
  if (segment < 0 || segment >= static_cast<int>(layout.segments.size()) ||
      !shownOnPictureTab(layout.segments[segment]))
    return;
  segment_ = segment;
  {
    const QSignalBlocker block(segments_);
    segments_->setCurrentIndex(segments_->findData(segment));
  }
  refresh();
}

void PictureView::setOverlay(PictureOverlay overlay) {
  overlay_ = overlay;
  {
    const QSignalBlocker block(overlayBox_);
    overlayBox_->setCurrentIndex(static_cast<int>(overlay));
  }
  refresh();
}

void PictureView::setUnpickedTemporal(int temporal) {
  unpickedTemporal_ = temporal;
  refresh();
}

void PictureView::setAttention(PictureAttention attention) {
  attention_ = std::move(attention);
  refresh();
}

std::vector<PixelCell> PictureView::pixelMapOfScene() const {
  const Scene& scene = model_->validScene();
  PixelMapSettings settings;
  settings.grid = scene.imageGrid;
  return pixelMap(scene.layout, settings);
}

std::string PictureView::pixelMapText(TableFormat format) const {
  return pixelMapReport(pixelMapOfScene(), format);
}

void PictureView::exportMap(const QString& path) const {
  const TableFormat format = path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)
                                 ? TableFormat::Json
                                 : TableFormat::Csv;
  writeFileAtomically(path.toStdString(), pixelMapText(format));
}

void PictureView::exportOverlay(const QString& path) const {
  if (segment_ < 0) throw InputError("the layout has no picture to export", "out");
  writePng(path.toStdString(), canvas_->render());
}

void PictureView::askExportMap() {
  QString selected;
  const QString path = askSaveFile(
      this, FileKind::Figure, tr("Export the token \xe2\x86\x92 pixel map"),
      QStringLiteral("pixel-map.csv"), tr("CSV data (*.csv);;JSON data (*.json)"), &selected);
  if (path.isEmpty()) return;
  // The format is the file's extension; a name without one takes the chosen filter's.
  QString target = path;
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QStringLiteral("csv") && suffix != QStringLiteral("json"))
    target += selected.contains(QStringLiteral("json")) ? QStringLiteral(".json")
                                                        : QStringLiteral(".csv");
  try {
    exportMap(target);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export the pixel map"), QString::fromStdString(e.what()));
  }
}

void PictureView::askExportOverlay() {
  const QString path =
      askSaveFile(this, FileKind::Figure, tr("Export the picture with its overlay"),
                  QStringLiteral("picture-overlay.png"), tr("PNG image (*.png)"));
  if (path.isEmpty()) return;
  try {
    exportOverlay(path);
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export the overlay"), QString::fromStdString(e.what()));
  }
}

QString PictureView::hoverText() const {
  return hoverLabel_->text();
}

void PictureView::refresh() {
  const SceneMetrics& m = model_->metrics();
  const Layout& layout = model_->validScene().layout;
  PictureCanvas::Content c;
  error_.clear();
  canvas_->setSelectedVisual(model_->selectedVisual());
  exportButton_->setEnabled(segment_ >= 0);
  if (segment_ < 0 || segment_ >= static_cast<int>(layout.segments.size()) ||
      !shownOnPictureTab(layout.segments[segment_])) {
    segment_ = -1;
    exportButton_->setEnabled(false);
    c.emptyText =
        tr("No picture in the layout: File \xe2\x86\x92 Add image\xe2\x80\xa6 (Ctrl+I), or "
           "drop picture files on the window.");
    // The canvas says it in its middle; the caption line under it would say it a second time.
    captionLabel_->setText(c.emptyText);
    captionLabel_->hide();
    canvas_->setContent(std::move(c));
    return;
  }
  const Segment& seg = layout.segments[segment_];
  c.rows = seg.rows;
  c.cols = seg.cols;
  if (mapStale_) {
    try {
      map_ = pixelMapOfScene();
    } catch (const std::exception& e) {
      map_.clear();
      error_ = QString::fromStdString(e.what());
    }
    mapStale_ = false;
  }

  // The selected visual token picks the temporal patch of a video.
  temporal_ = seg.kind == SegmentKind::Video ? unpickedTemporal_ : 0;
  const long selected = model_->selectedVisual();
  std::vector<long> visualOfToken(m.ids.size(), -1);
  long v = 0;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (inGroup(m.ids.tokens[i].modality, TokenGroup::Visual)) visualOfToken[i] = v++;
  for (std::size_t i = 0; i < m.ids.size(); ++i)
    if (visualOfToken[i] == selected && selected >= 0 && m.ids.tokens[i].segment == segment_ &&
        seg.kind == SegmentKind::Video)
      temporal_ = m.ids.tokens[i].frame;

  // The shown tokens: the segment's (one temporal patch of a video; every tile and the
  // thumbnail of a tiled picture), each with its rectangle from the map.
  for (const PixelCell& cell : map_) {
    if (cell.segment != segment_) continue;
    if (seg.kind == SegmentKind::Video && cell.frame != temporal_) continue;
    c.cells.push_back(cell);
    c.visual.push_back(cell.token < visualOfToken.size() ? visualOfToken[cell.token] : -1);
  }

  const bool attention = overlay_ == PictureOverlay::Attention;
  const std::vector<double>* source = overlay_ == PictureOverlay::Distance ? &m.selectedDistance
                                      : overlay_ == PictureOverlay::Bias   ? &m.selectedBias
                                                                           : nullptr;
  const bool attentionFits = attention && !attention_.row.empty() && attention_.layout == layout &&
                             attention_.row.size() == m.ids.size();
  if (source && !source->empty()) {
    c.values.assign(c.cells.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t k = 0; k < c.cells.size(); ++k) {
      const long vi = c.visual[k];
      if (vi >= 0 && vi < static_cast<long>(source->size())) c.values[k] = (*source)[vi];
    }
    c.valueName = overlay_ == PictureOverlay::Distance ? tr("distance") : tr("positional bias");
  } else if (attentionFits) {
    c.values.assign(c.cells.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t k = 0; k < c.cells.size(); ++k) c.values[k] = attention_.row[c.cells[k].token];
    c.logScale = attention_.logScale;
    c.valueName = attention_.what;
    c.legend = tr("colour: %1 of %2, %3 scale")
                   .arg(attention_.what, attention_.queryName,
                        attention_.logScale ? tr("log") : tr("linear"));
    if (seg.tiles.tiled() && seg.tiles.thumbnail)
      c.legend += tr("; tiles and thumbnail on one scale");
  }

  int frame = 0;
  if (seg.kind == SegmentKind::Video && !c.cells.empty())
    frame = static_cast<int>(c.cells.front().firstFrame);
  if (seg.source.isPicture()) c.picture = pictureFrame(seg.source, frame, &error_);
  canvas_->setContent(std::move(c));
  captionLabel_->setText(caption());
  captionLabel_->show();
  hoverLabel_->setText(tr("Point at a token to see its pixels"));
}

QString PictureView::caption() const {
  if (segment_ < 0) return captionLabel_->text();
  const Segment& seg = model_->validScene().layout.segments[segment_];
  QString text;
  if (seg.tiles.tiled()) {
    const TileGrid& g = seg.tiles;
    text = tr("%1 \xe2\x86\x92 %2 \xc3\x97 %3 tiles of %4 px%5 \xc2\xb7 %6 tokens a tile")
               .arg(pixelSizeText(g.width, g.height))
               .arg(g.cols)
               .arg(g.rows)
               .arg(g.tileSize)
               .arg(g.thumbnail ? tr(" + thumbnail") : QString())
               .arg(g.tokenSide * g.tokenSide);
  } else {
    text = tr("%1 \xe2\x86\x92 resized %2 \xe2\x86\x92 %3")
               .arg(pixelSizeText(seg.source.width, seg.source.height),
                    pixelSizeText(seg.source.resizedWidth, seg.source.resizedHeight),
                    gridText(canvas_->rows(), canvas_->cols()));
  }
  if (seg.kind == SegmentKind::Video && !canvas_->cells().empty()) {
    const PixelCell& first = canvas_->cells().front();
    text += QString::fromUtf8(" \xc2\xb7 ") + temporalPatchText(temporal_, seg.frames) +
            tr(" (frame %1 shown, the first of frames %1\xe2\x80\x93%2)")
                .arg(first.firstFrame)
                .arg(first.lastFrame);
  }
  if (canvas_->hasValues()) {
    if (canvas_->isFlat()) text += tr(" \xc2\xb7 the same for every patch");
    if (overlay_ == PictureOverlay::Attention)
      text += tr(" \xc2\xb7 %1 of %2").arg(attention_.what, attention_.queryName);
    else
      text +=
          overlay_ == PictureOverlay::Distance
              ? tr(" \xc2\xb7 distance from text token %1").arg(model_->validScene().selectedText)
              : tr(" \xc2\xb7 positional bias from text token %1")
                    .arg(model_->validScene().selectedText);
  } else if (overlay_ == PictureOverlay::Attention) {
    text +=
        tr(" \xc2\xb7 no attention row: open View \xe2\x86\x92 Attention and click a query's row");
  }
  if (!error_.isEmpty()) text += QLatin1Char('\n') + error_;
  return text;
}

int PictureView::rows() const {
  return canvas_->rows();
}
int PictureView::cols() const {
  return canvas_->cols();
}
long PictureView::visualIndex(int row, int col) const {
  return canvas_->visualIndex(row, col);
}
double PictureView::overlayValue(int row, int col) const {
  return canvas_->value(row, col);
}
QColor PictureView::overlayColor(int row, int col) const {
  return canvas_->color(row, col);
}
bool PictureView::overlayIsFlat() const {
  return canvas_->isFlat();
}
QRectF PictureView::cellRect(int row, int col) const {
  return canvas_->cellRect(row, col);
}

}  // namespace ropescope::ui
