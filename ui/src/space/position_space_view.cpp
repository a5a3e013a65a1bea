#include "space/position_space_view.h"

#include <QFileInfo>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include "picture/picture_source.h"
#include "style/axis_colors.h"
#include "style/modality_colors.h"

namespace ropescope::ui {

namespace {

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* data) {
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(data);
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

// Four corner colours of the grid-cell colour map: reading the ring, one can tell which corner
// of the image (top-left red, top-right yellow, bottom-left blue, bottom-right green) went where.
constexpr double kCorner[4][3] = {
    {0.91, 0.26, 0.24}, {0.98, 0.80, 0.18}, {0.22, 0.45, 0.95}, {0.20, 0.75, 0.45}};

std::array<unsigned char, 3> cellColor(double u, double v) {
  std::array<unsigned char, 3> rgb{};
  for (int c = 0; c < 3; ++c) {
    const double top = kCorner[0][c] * (1 - u) + kCorner[1][c] * u;
    const double bottom = kCorner[2][c] * (1 - u) + kCorner[3][c] * u;
    rgb[c] = static_cast<unsigned char>(std::lround(255.0 * (top * (1 - v) + bottom * v)));
  }
  return rgb;
}

std::array<unsigned char, 3> rgbOf(const QColor& c) {
  return {static_cast<unsigned char>(c.red()), static_cast<unsigned char>(c.green()),
          static_cast<unsigned char>(c.blue())};
}

QString number(double v) {
  return QString::number(v, 'g', 10);
}

// The axes' numbers and names, in layout pixels (figures: the charts' label and axis-title
// sizes). The tick count follows each axis's length on screen (space_axes.h), so the text keeps
// its size in compare mode's small quarters.
constexpr double kAxisNumberSize = 12.0;
constexpr double kAxisNameSize = 16.0;
// The title's and the stale note's font sizes, and the smallest either is set to where the view
// is too narrow for it (placeAxes).
constexpr int kTitleFontSize = 15;
constexpr int kStaleFontSize = 16;
constexpr int kMinFittedFontSize = 8;
// Room the fitted camera leaves around the content for the axes' labels, and above it for the
// title, in layout pixels.
constexpr double kFitMargin = 30.0;
constexpr double kFitTitleBand = 26.0;
// The content's extent is measured on at most this many tokens.
constexpr std::size_t kFitSample = 20000;
// The tokens the axis names keep off, at most (every token of the scenes one reads one by one).
constexpr std::size_t kAvoidSample = 1024;
// The camera's view angle in degrees, where every fit starts (Zoom changes it).
constexpr double kViewAngle = 30.0;

// Text for this view's VTK text actors, which read their bytes as Latin-1 (VTK 9.1): UTF-8 showed
// an em dash as "â". Dashes and the ellipsis become ASCII, anything else outside Latin-1 "?".
std::string vtkText(QString text) {
  text.replace(QChar(0x2026), QStringLiteral("..."));
  for (const char16_t dash : {u'\u2012', u'\u2013', u'\u2014', u'\u2212'})
    text.replace(QChar(dash), QLatin1Char('-'));
  return text.toLatin1().toStdString();
}
// The cone over picture tiles: fainter, so the picture on the ring stays visible.
constexpr double kConeOpacity = 0.35;
constexpr double kConeOpacityOverTiles = 0.18;

}  // namespace

PositionSpaceView::PositionSpaceView(QWidget* parent) : VtkView(parent) {
  textPoints_ = vtkSmartPointer<vtkPolyData>::New();
  textLine_ = vtkSmartPointer<vtkPolyData>::New();
  visualPoints_ = vtkSmartPointer<vtkPolyData>::New();
  audioPoints_ = vtkSmartPointer<vtkPolyData>::New();
  audioLine_ = vtkSmartPointer<vtkPolyData>::New();
  cone_ = vtkSmartPointer<vtkPolyData>::New();
  highlight_ = vtkSmartPointer<vtkPolyData>::New();
  textPointsActor_ = makeActor(textPoints_);
  textLineActor_ = makeActor(textLine_);
  visualActor_ = makeActor(visualPoints_);
  audioPointsActor_ = makeActor(audioPoints_);
  audioLineActor_ = makeActor(audioLine_);
  coneActor_ = makeActor(cone_);
  highlightActor_ = makeActor(highlight_);

  textPointsActor_->GetProperty()->SetRenderPointsAsSpheres(true);
  visualActor_->GetProperty()->SetRenderPointsAsSpheres(true);
  // Audio tokens: their own track (points joined in sequence order within each run).
  audioPointsActor_->GetProperty()->SetRenderPointsAsSpheres(true);
  {
    const QColor c = modalityColor(Modality::Audio);
    audioPointsActor_->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
    audioLineActor_->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
  }
  coneActor_->GetProperty()->SetOpacity(0.35);
  highlightActor_->GetProperty()->SetRenderPointsAsSpheres(true);
  highlightActor_->GetProperty()->SetColor(1.0, 0.95, 0.3);

  axes_ = std::make_unique<SpaceAxes>(renderer());

  staleText_ = vtkSmartPointer<vtkTextActor>::New();
  staleText_->GetTextProperty()->SetFontSize(kStaleFontSize);
  staleText_->GetTextProperty()->SetColor(0.85, 0.85, 0.85);
  staleText_->GetTextProperty()->SetBackgroundColor(0.35, 0.35, 0.35);
  staleText_->GetTextProperty()->SetBackgroundOpacity(0.85);
  staleText_->GetTextProperty()->SetJustificationToCentered();
  // In the middle, over the faded tokens: at the top it covered the title (1366 x 768).
  staleText_->GetTextProperty()->SetVerticalJustificationToCentered();
  staleText_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  staleText_->SetPosition(0.5, 0.5);
  staleText_->SetVisibility(false);

  coneNote_ = vtkSmartPointer<vtkTextActor>::New();
  coneNote_->GetTextProperty()->SetFontSize(13);
  coneNote_->GetTextProperty()->SetVerticalJustificationToBottom();
  coneNote_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  coneNote_->SetPosition(0.015, 0.015);
  coneNote_->SetVisibility(false);

  titleText_ = vtkSmartPointer<vtkTextActor>::New();
  titleText_->GetTextProperty()->SetFontSize(kTitleFontSize);
  titleText_->GetTextProperty()->SetBold(true);
  // Top left, above the fitted content: never on the axes' origin.
  titleText_->GetTextProperty()->SetVerticalJustificationToTop();
  titleText_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  titleText_->SetPosition(0.015, 0.985);

  // Plain ASCII: VTK's built-in fonts have no box-drawing glyphs.
  const char* keyText[3] = {"t axis", "h axis", "w axis"};
  for (int a = 0; a < 3; ++a) {
    axisKey_[a] = vtkSmartPointer<vtkTextActor>::New();
    axisKey_[a]->SetInput(keyText[a]);
    vtkTextProperty* p = axisKey_[a]->GetTextProperty();
    p->SetFontSize(13);
    p->SetBold(true);
    p->SetJustificationToRight();
    p->SetVerticalJustificationToTop();
    const QColor c = axisColor(a);
    p->SetColor(c.redF(), c.greenF(), c.blueF());
    axisKey_[a]->GetPositionCoordinate()->SetCoordinateSystemToDisplay();
  }

  vtkRenderer* ren = renderer();
  tiles_ = std::make_unique<PictureTiles>(ren);
  // Camera-facing tiles turn with the camera: re-aimed just before each frame.
  auto follow = vtkSmartPointer<vtkCallbackCommand>::New();
  follow->SetClientData(this);
  follow->SetCallback([](vtkObject* caller, unsigned long, void* self, void*) {
    auto* view = static_cast<PositionSpaceView*>(self);
    auto* renderer = static_cast<vtkRenderer*>(caller);
    view->tiles_->followCamera(renderer->GetActiveCamera());
    // A zoom that changes how densely the points must be drawn to cover the same area (before
    // the axes are placed: the note it rewrites is one of their obstacles).
    const int stride = view->wantedPointStride(renderer);
    if (stride != view->pointStride_) {
      view->pointStride_ = stride;
      view->buildVisualPoints();
    }
    view->placeAxes(renderer);
  });
  ren->AddObserver(vtkCommand::StartEvent, follow);
  for (auto& key : axisKey_) ren->AddActor2D(key);
  ren->AddActor(textLineActor_);
  ren->AddActor(textPointsActor_);
  ren->AddActor(visualActor_);
  ren->AddActor(audioLineActor_);
  ren->AddActor(audioPointsActor_);
  ren->AddActor(highlightActor_);
  ren->AddActor(coneActor_);  // after the opaque actors it is blended over (applyConeOpacity)
  ren->AddActor2D(staleText_);
  ren->AddActor2D(titleText_);
  ren->AddActor2D(coneNote_);
  applyPixelSizes();
  applyTheme();

  connect(this, &VtkView::hovered, this, &PositionSpaceView::onHover);
  connect(this, &VtkView::clicked, this, &PositionSpaceView::onClick);
  connect(this, &VtkView::left, this, [] { QToolTip::hideText(); });
  connect(this, &VtkView::cameraInteracted, this, [this] { cameraMoved_ = true; });
}

PositionSpaceView::~PositionSpaceView() = default;

// Point sizes and line widths are device pixels (P7); the ratio is only known for sure once the
// widget sits on a screen, and it changes when the window moves to another one.
void PositionSpaceView::applyPixelSizes() {
  const double s = pixelScale();
  textPointsActor_->GetProperty()->SetPointSize(9 * s);
  textLineActor_->GetProperty()->SetLineWidth(2 * s);
  visualActor_->GetProperty()->SetPointSize(9 * s);
  audioPointsActor_->GetProperty()->SetPointSize(7 * s);
  audioLineActor_->GetProperty()->SetLineWidth(3 * s);
  coneActor_->GetProperty()->SetLineWidth(1 * s);
  highlightActor_->GetProperty()->SetPointSize(17 * s);
  // Font sizes follow the window's DPI (VtkView sets it from the pixel scale); lines do not.
  axes_->setSizes(kAxisNumberSize, kAxisNameSize, 1.5 * s);
  // The axis key is hung at each render (placeAxes), below the title where that is long.
}

PositionSpaceView::CameraState PositionSpaceView::cameraState() const {
  CameraState state;
  state.camera = vtkSmartPointer<vtkCamera>::New();
  state.camera->DeepCopy(camera());
  state.preset = preset_;
  state.moved = cameraMoved_;
  return state;
}

void PositionSpaceView::restoreCameraState(const CameraState& state) {
  camera()->DeepCopy(state.camera);
  preset_ = state.preset;
  cameraMoved_ = state.moved;
  resetClippingRange();
  update();
}

void PositionSpaceView::resizeGL(int w, int h) {
  VtkView::resizeGL(w, h);
  applyPixelSizes();
  writeConeNote();
  // The fit depends on the view's size: refit unless the user has moved the camera since.
  if (hasContent_ && !cameraMoved_) applyPreset(preset_);
}

void PositionSpaceView::placeAxes(vtkRenderer* renderer) {
  // A text actor's box in display pixels (y up): its bounding box is about its anchor, so it is
  // offset by the anchor's display place. Empty for a hidden or empty text.
  const auto box = [renderer](vtkTextActor* t) {
    if (!t->GetVisibility() || !t->GetInput() || !*t->GetInput()) return QRectF();
    double bb[4];
    t->GetBoundingBox(renderer, bb);
    const int* at = t->GetPositionCoordinate()->GetComputedDisplayValue(renderer);
    return QRectF(bb[0] + at[0], bb[2] + at[1], bb[1] - bb[0], bb[3] - bb[2]);
  };
  // The key hangs from the top-right corner; a title long enough to reach it (a long design
  // name, an n/a with its reason) pushes it down below the title.
  // In the renderer's pixels: the widget's size may not have reached VTK yet (a hidden view).
  const double s = pixelScale();
  const int* size = renderer->GetSize();
  const double w = size[0], h = size[1];
  const auto hangKey = [&](double top) {
    for (int a = 0; a < 3; ++a) axisKey_[a]->SetPosition(w - 8 * s, top - 17 * s * a);
  };
  hangKey(h - 6 * s);
  // A title or stale note wider than the view is set smaller until it fits: cut off at the
  // edge, a compare quadrant's "PTD 7.6021" read "PTD 7.602", and the stale note lost both ends.
  const auto fitWidth = [&](vtkTextActor* t, int nominal, double room) {
    t->GetTextProperty()->SetFontSize(nominal);
    const QRectF b = box(t);
    if (b.isEmpty() || b.width() <= room || room <= 0) return;
    int size = std::max(kMinFittedFontSize, static_cast<int>(nominal * room / b.width()));
    t->GetTextProperty()->SetFontSize(size);
    while (size > kMinFittedFontSize && box(t).width() > room)  // glyphs do not scale exactly
      t->GetTextProperty()->SetFontSize(--size);
  };
  fitWidth(titleText_, kTitleFontSize, w * (1 - 0.015) - 4 * s);
  fitWidth(staleText_, kStaleFontSize, w - 8 * s);
  titleBox_ = box(titleText_);
  staleBox_ = box(staleText_);
  const auto keyBox = [&] {
    QRectF all;
    for (auto& k : axisKey_) all |= box(k);
    return all;
  };
  if (!titleBox_.isEmpty() && keyBox().intersects(titleBox_)) hangKey(titleBox_.top() - 4 * s);
  keyBox_ = keyBox();
  // The axis numbers and names keep off the texts drawn over the view.
  std::vector<QRectF> obstacles;
  for (vtkTextActor* t : {titleText_.Get(), staleText_.Get(), coneNote_.Get()})
    if (const QRectF r = box(t); !r.isEmpty()) obstacles.push_back(r);
  for (auto& k : axisKey_)
    if (const QRectF r = box(k); !r.isEmpty()) obstacles.push_back(r);
  axes_->setObstacles(obstacles);
  // The axis names keep off the tokens where they can (a sample of at most kAvoidSample, in
  // display pixels with the origin bottom-left, as the labels' boxes).
  std::vector<QRectF> tokens;
  if (w > 0 && h > 0) {
    const double r = 6 * s;  // about a token's drawn radius, and a little room
    vtkMatrix4x4* m =
        renderer->GetActiveCamera()->GetCompositeProjectionTransformMatrix(w / h, -1.0, 1.0);
    const std::size_t step = std::max<std::size_t>(1, ids_.size() / kAvoidSample);
    for (std::size_t i = 0; i < ids_.size(); i += step) {
      const double p[4] = {ids_.ids[i][0], ids_.ids[i][1], ids_.ids[i][2], 1.0};
      double q[4];
      m->MultiplyPoint(p, q);
      if (q[3] <= 0) continue;
      const double x = (q[0] / q[3] + 1.0) * 0.5 * w, y = (q[1] / q[3] + 1.0) * 0.5 * h;
      tokens.emplace_back(x - r, y - r, 2 * r, 2 * r);
    }
  }
  axes_->setAvoided(std::move(tokens));
  axes_->update();
}

bool PositionSpaceView::showsSameTokens(const PositionIds& ids) const {
  if (!hasContent_ || tilesDirty_ || ids.design != ids_.design || ids.ids != ids_.ids ||
      ids.tokens.size() != ids_.tokens.size())
    return false;
  for (std::size_t i = 0; i < ids.tokens.size(); ++i) {
    const TokenInfo &a = ids.tokens[i], &b = ids_.tokens[i];
    if (a.modality != b.modality || a.segment != b.segment || a.row != b.row || a.col != b.col ||
        a.frame != b.frame)
      return false;
  }
  return true;
}

bool PositionSpaceView::showSelection(long selectedToken, long selectedVisual) {
  if (!hasContent_ || tilesDirty_) return false;
  if (selectedToken == selectedToken_ && selectedVisual == selectedVisual_) return true;
  selectedToken_ = selectedToken;
  selectedVisual_ = selectedVisual;
  rebuildSelection();
  resetClippingRange();
  update();
  return true;
}

void PositionSpaceView::showIds(const PositionIds& ids, long selectedToken, long selectedVisual) {
  if (showsSameTokens(ids)) {
    showSelection(selectedToken, selectedVisual);
    return;
  }
  if (ids.ids != ids_.ids || ids.design != ids_.design) tilesDirty_ = true;
  // A fresh copy, not copy-assignment: that would keep a huge scene's capacity after it.
  ids_ = PositionIds(ids);
  selectedToken_ = selectedToken;
  selectedVisual_ = selectedVisual;
  rebuild();
}

void PositionSpaceView::setSelectedAudio(long audioIndex) {
  if (audioIndex == selectedAudio_) return;
  selectedAudio_ = audioIndex;
  rebuild();
}

void PositionSpaceView::setLayout(const Layout& layout) {
  if (layout == layout_) return;
  layout_ = layout;
  tilesDirty_ = true;
}

void PositionSpaceView::setMarkedTokens(std::vector<long> tokens) {
  marked_ = std::move(tokens);
  rebuild();
}

void PositionSpaceView::setTileFacing(TileFacing facing) {
  if (facing == tiles_->facing()) return;
  tiles_->setFacing(facing);
  rebuild();  // the facing decides which crowded tokens are tiles and which are points
}

void PositionSpaceView::setColorMode(ColorMode mode) {
  if (mode == colorMode_) return;
  colorMode_ = mode;
  applyColors();
  update();
}

void PositionSpaceView::setStale(bool stale, const QString& why) {
  // Two short lines: one was cut off in a compare quadrant at 1366 x 768.
  const std::string text = vtkText(
      why.isEmpty() ? QStringLiteral("input invalid \u2014\nshowing the last valid scene") : why);
  if (!staleText_->GetInput() || text != staleText_->GetInput()) {
    staleText_->SetInput(text.c_str());
    update();
  }
  if (stale == stale_) return;
  stale_ = stale;
  staleText_->SetVisibility(stale);
  // Fade the content so numbers of the last valid scene do not read as current.
  const double opacity = stale ? 0.3 : 1.0;
  for (vtkActor* a : {textPointsActor_.Get(), textLineActor_.Get(), visualActor_.Get(),
                      audioPointsActor_.Get(), audioLineActor_.Get(), highlightActor_.Get()}) {
    a->GetProperty()->SetOpacity(opacity);
  }
  applyConeOpacity();
  tiles_->setOpacity(opacity);
  update();
}

void PositionSpaceView::applyConeOpacity() {
  const bool tiles = tiles_->tileCount() > 0;
  coneActor_->GetProperty()->SetOpacity(stale_  ? 0.1
                                        : tiles ? kConeOpacityOverTiles
                                                : kConeOpacity);
  // Over the points alone the cone's lines are blended as they are drawn, after the points:
  // VTK's translucent pass would take a fifth of every frame on software OpenGL for lines of
  // one colour that need no sorting. Over picture tiles (drawn after the cone) and in a stale
  // view (everything translucent) the translucent pass orders them.
  coneActor_->SetForceOpaque(!stale_ && !tiles);
}

void PositionSpaceView::setAxisKeyVisible(bool visible) {
  for (auto& key : axisKey_) key->SetVisibility(visible);
  update();
}

void PositionSpaceView::setAxisLabelsVisible(bool visible) {
  axes_->setNumbersVisible(visible);
  update();
}

void PositionSpaceView::setTextFontFile(const QString& path) {
  const QByteArray file = path.toLocal8Bit();
  for (vtkTextActor* t : {titleText_.Get(), coneNote_.Get()}) {
    t->GetTextProperty()->SetFontFamily(VTK_FONT_FILE);
    t->GetTextProperty()->SetFontFile(file.constData());
  }
  for (auto& key : axisKey_) {
    key->GetTextProperty()->SetFontFamily(VTK_FONT_FILE);
    key->GetTextProperty()->SetFontFile(file.constData());
  }
  axes_->setFontFile(path);
  update();
}

void PositionSpaceView::setTitle(const QString& title) {
  titleText_->SetInput(vtkText(title).c_str());
  update();
}

void PositionSpaceView::setDark(bool dark) {
  dark_ = dark;
  applyTheme();
  update();
}

void PositionSpaceView::applyTheme() {
  vtkRenderer* ren = renderer();
  const double fg = dark_ ? 0.85 : 0.15;
  if (dark_) {
    ren->SetBackground(0.09, 0.10, 0.13);
    ren->SetBackground2(0.17, 0.19, 0.24);
  } else {
    ren->SetBackground(0.99, 0.99, 1.0);
    ren->SetBackground2(0.86, 0.88, 0.92);
  }
  ren->GradientBackgroundOn();
  textLineActor_->GetProperty()->SetColor(fg, fg, fg);
  coneActor_->GetProperty()->SetColor(dark_ ? 0.55 : 0.35, dark_ ? 0.75 : 0.45, dark_ ? 1.0 : 0.8);
  highlightActor_->GetProperty()->SetColor(dark_ ? 1.0 : 0.85, dark_ ? 0.95 : 0.1,
                                           dark_ ? 0.3 : 0.55);
  titleText_->GetTextProperty()->SetColor(fg, fg, fg);
  coneNote_->GetTextProperty()->SetColor(fg, fg, fg);
  std::array<std::array<double, 3>, 3> axisRgb{};
  for (int a = 0; a < 3; ++a) {
    const QColor c = axisColor(a);
    axisRgb[static_cast<std::size_t>(a)] = {c.redF(), c.greenF(), c.blueF()};
  }
  const double fgRgb[3] = {fg, fg, fg};
  axes_->setColors(fgRgb, axisRgb);
  applyColors();
}

void PositionSpaceView::rebuild() {
  ++geometryBuilds_;
  const std::size_t n = ids_.size();
  const bool moved = tilesDirty_;  // the ids changed (not only the selection)
  textIndexOf_.assign(n, -1);
  visualIndexOf_.assign(n, -1);
  audioIndexOf_.assign(n, -1);
  visualTokens_.clear();
  audioTokens_.clear();
  pointTokens_.clear();
  if (tilesDirty_) {
    // Only the layout's own tokens can be tiles: ids of another layout (compare mode, a stale
    // layout) must not pick up its pictures.
    tiles_->setContent(ids_, ids_.size() == layout_.tokenCount() ? layout_ : Layout{});
    tilesDirty_ = false;
    applyConeOpacity();
  }

  auto textPts = vtkSmartPointer<vtkPoints>::New();
  auto textVerts = vtkSmartPointer<vtkCellArray>::New();
  auto audioPts = vtkSmartPointer<vtkPoints>::New();
  auto audioVerts = vtkSmartPointer<vtkCellArray>::New();
  auto audioRuns = vtkSmartPointer<vtkCellArray>::New();
  std::vector<vtkIdType> run;  // the audio run being walked (consecutive tokens of one segment)
  auto closeRun = [&] {
    if (run.size() > 1) audioRuns->InsertNextCell(static_cast<vtkIdType>(run.size()), run.data());
    run.clear();
  };
  long textCount = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Id3& p = ids_.ids[i];
    if (ids_.tokens[i].modality == Modality::Text) {
      textIndexOf_[i] = textCount++;
      const vtkIdType id = textPts->InsertNextPoint(p[0], p[1], p[2]);
      textVerts->InsertNextCell(1, &id);
    } else if (ids_.tokens[i].modality == Modality::Audio) {
      audioIndexOf_[i] = static_cast<long>(audioTokens_.size());
      if (!audioTokens_.empty() &&
          (ids_.tokens[audioTokens_.back()].segment != ids_.tokens[i].segment ||
           static_cast<std::size_t>(audioTokens_.back()) + 1 != i))
        closeRun();
      audioTokens_.push_back(static_cast<long>(i));
      const vtkIdType id = audioPts->InsertNextPoint(p[0], p[1], p[2]);
      audioVerts->InsertNextCell(1, &id);
      run.push_back(id);
    } else {
      visualIndexOf_[i] = static_cast<long>(visualTokens_.size());
      visualTokens_.push_back(static_cast<long>(i));
      if (!tiles_->covers(static_cast<long>(i))) pointTokens_.push_back(static_cast<long>(i));
    }
  }
  closeRun();
  sampleCone();
  textPoints_->Initialize();
  textPoints_->SetPoints(textPts);
  textPoints_->SetVerts(textVerts);
  audioPoints_->Initialize();
  audioPoints_->SetPoints(audioPts);
  audioPoints_->SetVerts(audioVerts);
  audioLine_->Initialize();
  audioLine_->SetPoints(audioPts);
  audioLine_->SetLines(audioRuns);

  // The polyline follows the text tokens in sequence order, across the visual blocks.
  textLine_->Initialize();
  textLine_->SetPoints(textPts);
  auto line = vtkSmartPointer<vtkCellArray>::New();
  if (textPts->GetNumberOfPoints() > 1) {
    line->InsertNextCell(textPts->GetNumberOfPoints());
    for (vtkIdType k = 0; k < textPts->GetNumberOfPoints(); ++k) line->InsertCellPoint(k);
  }
  textLine_->SetLines(line);

  rebuildSelection();
  pointStride_ = wantedPointStride(renderer());
  buildVisualPoints();  // with their colours and the note

  double b[6];
  contentBounds(b);
  axes_->setBounds(b);
  axes_->setVisible(n > 0);

  const QString key = QString::fromStdString(ids_.design) + QLatin1Char('/') + QString::number(n);
  if (!hasContent_ || key != shapeKey_) {
    shapeKey_ = key;
    hasContent_ = true;
    applyPreset(CameraPreset::Default);
  } else if (moved && !fixedBounds_) {
    // An edit moved the ids: keep the user's direction, fit the new extent from the start. A
    // fit from the old camera zoomed a view placed for a ring of radius 10 out to one of 200
    // while the camera stayed inside it: the tokens were behind it and the view went blank.
    renderer()->GetActiveCamera()->SetViewAngle(kViewAngle);
    renderer()->ResetCamera(b);
    fitCamera(nullptr);
    resetClippingRange();
  } else {
    resetClippingRange();
  }
  update();
}

void PositionSpaceView::sampleCone() {
  coneSample_.clear();
  if (visualTokens_.size() <= kMaxConeLines) return;  // every visual token gets its line
  // Room for the extremes: two per axis here, the nearest and farthest per selection.
  const std::size_t even = kMaxConeLines - 8;
  const std::size_t stride = (visualTokens_.size() + even - 1) / even;
  for (std::size_t k = 0; k < visualTokens_.size(); k += stride)
    coneSample_.push_back(visualTokens_[k]);
  for (int a = 0; a < 3; ++a) {
    const auto [lo, hi] =
        std::minmax_element(visualTokens_.begin(), visualTokens_.end(),
                            [&](long x, long y) { return ids_.ids[x][a] < ids_.ids[y][a]; });
    coneSample_.push_back(*lo);
    coneSample_.push_back(*hi);
  }
  std::sort(coneSample_.begin(), coneSample_.end());
  coneSample_.erase(std::unique(coneSample_.begin(), coneSample_.end()), coneSample_.end());
}

void PositionSpaceView::writeConeNote() {
  const bool lattice = pointStride_ > 1;
  coneNote_->SetVisibility(coneShown_ > 0 || lattice);
  if (coneShown_ == 0 && !lattice) return;
  // Short lines: a longer one was cut off by the view's edge at 1366 x 768, and a compare
  // quadrant there is under 420 px wide.
  const bool wide = width() >= 420;
  QStringList lines;
  if (coneShown_ > 0)
    // The lines from the selected text token: a cone under Circle-RoPE only, so not called one.
    lines << (wide ? QStringLiteral("lines to %1 of %2 visual tokens\n(an even sample with the "
                                    "nearest,\nthe farthest and each axis's extremes)")
                   : QStringLiteral("lines to %1 of %2\nvisual tokens\n(an even sample)"))
                 .arg(coneShown_)
                 .arg(visualTokens_.size());
  if (lattice && wide)
    lines << QStringLiteral("points: 1 in %1 rows and columns (%2 of %3;\nzoom in for all)")
                 .arg(pointStride_)
                 .arg(drawnPoints_.size())
                 .arg(pointTokens_.size());
  else if (lattice)  // no room for the counts
    lines << QStringLiteral("points: 1 in %1 rows, cols\n(zoom in for all)").arg(pointStride_);
  coneNote_->SetInput(vtkText(lines.join(QLatin1Char('\n'))).c_str());
}

int PositionSpaceView::wantedPointStride(vtkRenderer* renderer) const {
  if (pointTokens_.size() <= kPointBudget) return 1;
  const int* size = renderer->GetSize();
  if (size[0] < 2 || size[1] < 2) return 1;  // not on a screen yet: nothing to judge by
  // The median on-screen distance between a token and the next one in its row, over an even
  // sample of the drawn tokens.
  std::vector<double> gaps;
  const std::size_t step = std::max<std::size_t>(1, pointTokens_.size() / 64);
  auto display = [renderer](const Id3& p, double out[3]) {
    renderer->SetWorldPoint(p[0], p[1], p[2], 1.0);
    renderer->WorldToDisplay();
    renderer->GetDisplayPoint(out);
  };
  for (std::size_t k = 0; k < pointTokens_.size(); k += step) {
    const auto t = static_cast<std::size_t>(pointTokens_[k]);
    if (t + 1 >= ids_.size()) continue;
    const TokenInfo &a = ids_.tokens[t], &b = ids_.tokens[t + 1];
    if (b.modality != a.modality || b.segment != a.segment || b.frame != a.frame ||
        b.row != a.row || b.col != a.col + 1)
      continue;
    double pa[3], pb[3];
    display(ids_.ids[t], pa);
    display(ids_.ids[t + 1], pb);
    gaps.push_back(std::hypot(pa[0] - pb[0], pa[1] - pb[1]));
  }
  if (gaps.empty()) return 1;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2),
                   gaps.end());
  const double gap = gaps[gaps.size() / 2];
  // Drawn points at most 0.7 of a point apart: the centre of each square of four is under half
  // a point from its corners, so the points still cover the grid's area without a hole.
  const double pointPx = visualActor_->GetProperty()->GetPointSize();
  if (!(gap > 0.0)) return kMaxPointStride;
  return std::clamp(static_cast<int>(0.7 * pointPx / gap), 1, kMaxPointStride);
}

void PositionSpaceView::buildVisualPoints() {
  drawnPoints_.clear();
  std::map<std::pair<int, int>, std::pair<int, int>> last;  // (segment, frame): last row, col
  if (pointStride_ > 1)
    for (long t : pointTokens_) {
      const TokenInfo& info = ids_.tokens[t];
      auto& e = last[{info.segment, info.frame}];
      e.first = std::max(e.first, info.row);
      e.second = std::max(e.second, info.col);
    }
  auto pts = vtkSmartPointer<vtkPoints>::New();
  auto verts = vtkSmartPointer<vtkCellArray>::New();
  for (long t : pointTokens_) {
    const TokenInfo& info = ids_.tokens[t];
    if (pointStride_ > 1) {
      // Every stride-th row and column, and each grid's last ones, so that its edges stay put.
      const auto& e = last[{info.segment, info.frame}];
      if ((info.row % pointStride_ != 0 && info.row != e.first) ||
          (info.col % pointStride_ != 0 && info.col != e.second))
        continue;
    }
    drawnPoints_.push_back(t);
    const Id3& p = ids_.ids[static_cast<std::size_t>(t)];
    const vtkIdType id = pts->InsertNextPoint(p[0], p[1], p[2]);
    verts->InsertNextCell(1, &id);
  }
  visualPoints_->Initialize();
  visualPoints_->SetPoints(pts);
  visualPoints_->SetVerts(verts);
  applyColors();
  writeConeNote();  // it says how many are drawn
}

QString PositionSpaceView::coneNote() const {
  if (!coneNote_->GetVisibility() || !coneNote_->GetInput()) return {};
  return QString::fromLatin1(coneNote_->GetInput());
}

QString PositionSpaceView::staleNote() const {
  if (!staleText_->GetVisibility() || !staleText_->GetInput()) return {};
  return QString::fromLatin1(staleText_->GetInput());
}

void PositionSpaceView::rebuildSelection() {
  const std::size_t n = ids_.size();
  // The cone: the selected text token joined to every visual token, or to the sample (with the
  // nearest and farthest visual token from this one) in a large scene.
  cone_->Initialize();
  highlight_->Initialize();
  auto conePts = vtkSmartPointer<vtkPoints>::New();
  auto coneLines = vtkSmartPointer<vtkCellArray>::New();
  auto hiPts = vtkSmartPointer<vtkPoints>::New();
  auto hiVerts = vtkSmartPointer<vtkCellArray>::New();
  coneEnds_.clear();
  bool sampled = false;
  if (selectedToken_ >= 0 && selectedToken_ < static_cast<long>(n)) {
    const Id3& s = ids_.ids[selectedToken_];
    coneEnds_ = coneSample_.empty() ? visualTokens_ : coneSample_;
    if (!coneSample_.empty()) {
      sampled = true;
      // The first nearest and the last farthest (as std::minmax_element picks them), each
      // token's squared distance taken once.
      long nearest = visualTokens_.front(), farthest = nearest;
      double least = std::numeric_limits<double>::infinity(), most = -least;
      for (long t : visualTokens_) {
        const Id3& p = ids_.ids[t];
        const double d2 = (p[0] - s[0]) * (p[0] - s[0]) + (p[1] - s[1]) * (p[1] - s[1]) +
                          (p[2] - s[2]) * (p[2] - s[2]);
        if (d2 < least) least = d2, nearest = t;
        if (d2 >= most) most = d2, farthest = t;
      }
      for (long t : {nearest, farthest})
        if (!std::binary_search(coneSample_.begin(), coneSample_.end(), t)) coneEnds_.push_back(t);
    }
    conePts->Allocate(static_cast<vtkIdType>(coneEnds_.size() + 1));
    coneLines->AllocateEstimate(static_cast<vtkIdType>(coneEnds_.size()), 2);
    const vtkIdType origin = conePts->InsertNextPoint(s[0], s[1], s[2]);
    for (long t : coneEnds_) {
      const Id3& p = ids_.ids[t];
      const vtkIdType end = conePts->InsertNextPoint(p[0], p[1], p[2]);
      const vtkIdType seg[2] = {origin, end};
      coneLines->InsertNextCell(2, seg);
    }
    const vtkIdType h = hiPts->InsertNextPoint(s[0], s[1], s[2]);
    hiVerts->InsertNextCell(1, &h);
  }
  coneShown_ = sampled ? coneEnds_.size() : 0;
  writeConeNote();
  if (selectedVisual_ >= 0 && selectedVisual_ < static_cast<long>(visualTokens_.size())) {
    const Id3& p = ids_.ids[visualTokens_[selectedVisual_]];
    const vtkIdType h = hiPts->InsertNextPoint(p[0], p[1], p[2]);
    hiVerts->InsertNextCell(1, &h);
  }
  if (selectedAudio_ >= 0 && selectedAudio_ < static_cast<long>(audioTokens_.size())) {
    const Id3& p = ids_.ids[audioTokens_[selectedAudio_]];
    const vtkIdType h = hiPts->InsertNextPoint(p[0], p[1], p[2]);
    hiVerts->InsertNextCell(1, &h);
  }
  for (long t : marked_) {
    if (t < 0 || t >= static_cast<long>(n)) continue;
    const Id3& p = ids_.ids[t];
    const vtkIdType h = hiPts->InsertNextPoint(p[0], p[1], p[2]);
    hiVerts->InsertNextCell(1, &h);
  }
  cone_->SetPoints(conePts);
  cone_->SetLines(coneLines);
  highlight_->SetPoints(hiPts);
  highlight_->SetVerts(hiVerts);
  highlight_->Modified();
  cone_->Modified();
}

void PositionSpaceView::applyColors() {
  const double fg = dark_ ? 0.93 : 0.12;
  textPointsActor_->GetProperty()->SetColor(fg, fg, fg);

  // Grid extents per segment, so each block spans the whole colour map.
  std::map<int, std::pair<int, int>> extent;
  for (long t : visualTokens_) {
    const TokenInfo& info = ids_.tokens[t];
    auto& e = extent[info.segment];
    e.first = std::max(e.first, info.row);
    e.second = std::max(e.second, info.col);
  }
  auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colors->SetNumberOfComponents(3);
  colors->SetName("colors");
  for (long t : drawnPoints_) {
    const TokenInfo& info = ids_.tokens[t];
    std::array<unsigned char, 3> rgb;
    if (colorMode_ == ColorMode::GridCell) {
      const auto& e = extent[info.segment];
      const double u = e.second > 0 ? static_cast<double>(info.col) / e.second : 0.5;
      const double v = e.first > 0 ? static_cast<double>(info.row) / e.first : 0.5;
      rgb = cellColor(u, v);
    } else {
      rgb = rgbOf(modalityColor(info.modality));
    }
    colors->InsertNextTypedTuple(rgb.data());
  }
  visualPoints_->GetPointData()->SetScalars(colors);
  visualPoints_->Modified();
}

void PositionSpaceView::setFixedBounds(const double* bounds) {
  if (bounds)
    fixedBounds_.emplace(
        std::array<double, 6>{bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5]});
  else
    fixedBounds_.reset();
}

void PositionSpaceView::contentBounds(double b[6]) const {
  if (fixedBounds_) {
    std::copy(fixedBounds_->begin(), fixedBounds_->end(), b);
  } else if (ids_.size() == 0) {
    for (int a = 0; a < 3; ++a) {
      b[2 * a] = 0.0;
      b[2 * a + 1] = 1.0;
    }
    return;
  } else {
    for (int a = 0; a < 3; ++a) {
      b[2 * a] = ids_.ids[0][a];
      b[2 * a + 1] = ids_.ids[0][a];
    }
    for (const Id3& p : ids_.ids) {
      for (int a = 0; a < 3; ++a) {
        b[2 * a] = std::min(b[2 * a], p[a]);
        b[2 * a + 1] = std::max(b[2 * a + 1], p[a]);
      }
    }
  }
  // A flat axis (e.g. one image row) still needs a visible extent for the axes' ticks.
  for (int a = 0; a < 3; ++a) {
    if (b[2 * a + 1] - b[2 * a] < 1e-9) {
      b[2 * a] -= 0.5;
      b[2 * a + 1] += 0.5;
    }
  }
}

void PositionSpaceView::resetClippingRange() {
  // From the tokens' box, not from the actors': the axes' lines are rebuilt when the view
  // paints, so after an edit they still spanned the old ids. V2PE's visual stride from 10^6 to
  // 16 set the near plane 500 units out with the camera 150 from the tokens: a blank view. The
  // box is widened for the axes' ticks and the picture tiles' half cells.
  double b[6];
  contentBounds(b);
  double span = 0;
  for (int a = 0; a < 3; ++a) span = std::max(span, b[2 * a + 1] - b[2 * a]);
  const double pad = std::max(0.05 * span, 1.0);
  for (int a = 0; a < 3; ++a) {
    b[2 * a] -= pad;
    b[2 * a + 1] += pad;
  }
  renderer()->ResetCameraClippingRange(b);
}

void PositionSpaceView::applyPreset(CameraPreset preset, const double* bounds) {
  double own[6];
  if (!bounds) {
    contentBounds(own);
    bounds = own;
  }
  const double c[3] = {(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2,
                       (bounds[4] + bounds[5]) / 2};
  double dir[3], up[3];
  switch (preset) {
    case CameraPreset::DownTextAxis:  // the text axis (1,1,1) points at the viewer
      dir[0] = 1, dir[1] = 1, dir[2] = 1;
      up[0] = -1, up[1] = -1, up[2] = 2;
      break;
    case CameraPreset::SideOn:  // text axis horizontal, the visual plane seen edge-on
      dir[0] = 1, dir[1] = -1, dir[2] = 0;
      up[0] = -1, up[1] = -1, up[2] = 2;
      break;
    default:
      // Oblique, partly down the text axis: the text line recedes and a ring of visual tokens
      // (circle designs) opens into an ellipse instead of collapsing to a stroke.
      dir[0] = 1.25, dir[1] = -0.45, dir[2] = 0.95;
      up[0] = -0.3, up[1] = 0.2, up[2] = 1;
      break;
  }
  vtkCamera* cam = renderer()->GetActiveCamera();
  cam->SetFocalPoint(c);
  cam->SetPosition(c[0] + dir[0], c[1] + dir[1], c[2] + dir[2]);
  cam->SetViewUp(up);
  cam->OrthogonalizeViewUp();
  cam->SetViewAngle(kViewAngle);  // Zoom changes the angle: start every preset from the same one
  double padded[6];
  std::copy(bounds, bounds + 6, padded);
  renderer()->ResetCamera(padded);
  fitCamera(own == bounds ? nullptr : bounds);
  renderer()->ResetCameraClippingRange(padded);
  preset_ = preset;
  cameraMoved_ = false;
  update();
}

void PositionSpaceView::fitCamera(const double* bounds) {
  const int w = width(), h = height();
  if (w <= 0 || h <= 0) return;
  // What must be in view: the given box's corners, or the tokens and the axes (the shared
  // origin and the three axis ends).
  std::vector<std::array<double, 3>> pts;
  double b[6];
  if (bounds) {
    std::copy(bounds, bounds + 6, b);
    for (int k = 0; k < 8; ++k) pts.push_back({b[k & 1], b[2 + ((k >> 1) & 1)], b[4 + (k >> 2)]});
  } else {
    contentBounds(b);
    const std::size_t step = std::max<std::size_t>(1, ids_.size() / kFitSample);
    for (std::size_t i = 0; i < ids_.size(); i += step)
      pts.push_back({ids_.ids[i][0], ids_.ids[i][1], ids_.ids[i][2]});
    pts.push_back({b[0], b[2], b[4]});
    pts.push_back({b[1], b[2], b[4]});
    pts.push_back({b[0], b[3], b[4]});
    pts.push_back({b[0], b[2], b[5]});
  }
  const double s = figureScale();
  const double margin = kFitMargin * s;
  const double top =
      margin + (titleText_->GetInput() && *titleText_->GetInput() ? kFitTitleBand * s : 0.0);
  // Target box in normalized device coordinates.
  const double tx0 = -1 + 2 * margin / w, tx1 = 1 - 2 * margin / w;
  const double ty0 = -1 + 2 * margin / h, ty1 = 1 - 2 * top / h;
  if (tx1 <= tx0 || ty1 <= ty0) return;
  vtkCamera* cam = renderer()->GetActiveCamera();
  const double aspect = static_cast<double>(w) / h;
  for (int iter = 0; iter < 4; ++iter) {
    vtkMatrix4x4* m = cam->GetCompositeProjectionTransformMatrix(aspect, -1.0, 1.0);
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (const auto& p : pts) {
      const double in[4] = {p[0], p[1], p[2], 1.0};
      double q[4];
      m->MultiplyPoint(in, q);
      if (q[3] <= 0) continue;
      x0 = std::min(x0, q[0] / q[3]), x1 = std::max(x1, q[0] / q[3]);
      y0 = std::min(y0, q[1] / q[3]), y1 = std::max(y1, q[1] / q[3]);
    }
    if (!(x1 > x0) && !(y1 > y0)) return;
    const double fx = x1 > x0 ? (tx1 - tx0) / (x1 - x0) : 1e9;
    const double fy = y1 > y0 ? (ty1 - ty0) / (y1 - y0) : 1e9;
    const double f = std::clamp(std::min(fx, fy), 0.05, 20.0);
    // Pan the box's centre onto the target's, in the focal plane.
    const double dx = (x0 + x1) / 2 - (tx0 + tx1) / 2, dy = (y0 + y1) / 2 - (ty0 + ty1) / 2;
    const double hh = cam->GetDistance() * std::tan(cam->GetViewAngle() * vtkMath::Pi() / 360.0);
    double up[3], dop[3], right[3];
    cam->GetViewUp(up);
    cam->GetDirectionOfProjection(dop);
    vtkMath::Cross(dop, up, right);
    vtkMath::Normalize(right);
    double fp[3], pos[3];
    cam->GetFocalPoint(fp);
    cam->GetPosition(pos);
    for (int k = 0; k < 3; ++k) {
      const double shift = right[k] * dx * hh * aspect + up[k] * dy * hh;
      fp[k] += shift;
      pos[k] += shift;
    }
    cam->SetFocalPoint(fp);
    cam->SetPosition(pos);
    cam->Zoom(f);
    if (std::abs(f - 1) < 0.01 && std::abs(dx) < 0.01 && std::abs(dy) < 0.01) break;
  }
}

void PositionSpaceView::setCamera(vtkCamera* camera) {
  renderer()->SetActiveCamera(camera);
  update();
}

vtkCamera* PositionSpaceView::camera() const {
  return renderer()->GetActiveCamera();
}

long PositionSpaceView::tokenAt(QPoint pos) const {
  const int w = width(), h = height();
  if (w <= 0 || h <= 0 || ids_.size() == 0) return -1;
  vtkCamera* cam = renderer()->GetActiveCamera();
  vtkMatrix4x4* m =
      cam->GetCompositeProjectionTransformMatrix(static_cast<double>(w) / h, -1.0, 1.0);
  long best = -1;
  double bestD2 = 8.0 * 8.0;  // pick radius in logical pixels
  double bestDepth = 2.0;
  for (std::size_t i = 0; i < ids_.size(); ++i) {
    const double p[4] = {ids_.ids[i][0], ids_.ids[i][1], ids_.ids[i][2], 1.0};
    double q[4];
    m->MultiplyPoint(p, q);
    if (q[3] <= 0) continue;
    const double x = (q[0] / q[3] + 1.0) * 0.5 * w;
    const double y = (1.0 - q[1] / q[3]) * 0.5 * h;
    const double depth = q[2] / q[3];
    const double d2 = (x - pos.x()) * (x - pos.x()) + (y - pos.y()) * (y - pos.y());
    // Prefer the nearest on screen; among overlapping tokens, the one closest to the viewer.
    if (d2 < bestD2 - 1e-9 || (std::abs(d2 - bestD2) <= 1e-9 && depth < bestDepth)) {
      bestD2 = d2;
      bestDepth = depth;
      best = static_cast<long>(i);
    }
  }
  return best;
}

QPointF PositionSpaceView::tokenPosition(long token) const {
  const int w = width(), h = height();
  if (token < 0 || token >= static_cast<long>(ids_.size()) || w <= 0 || h <= 0)
    return QPointF(-1, -1);
  vtkMatrix4x4* m = renderer()->GetActiveCamera()->GetCompositeProjectionTransformMatrix(
      static_cast<double>(w) / h, -1.0, 1.0);
  const double p[4] = {ids_.ids[token][0], ids_.ids[token][1], ids_.ids[token][2], 1.0};
  double q[4];
  m->MultiplyPoint(p, q);
  if (q[3] <= 0) return QPointF(-1, -1);
  return QPointF((q[0] / q[3] + 1.0) * 0.5 * w, (1.0 - q[1] / q[3]) * 0.5 * h);
}

QString PositionSpaceView::describeToken(long token) const {
  if (token < 0 || token >= static_cast<long>(ids_.size())) return {};
  const TokenInfo& info = ids_.tokens[token];
  const Id3& p = ids_.ids[token];
  QString text = QStringLiteral("token %1 · %2 (segment %3)")
                     .arg(token)
                     .arg(QString::fromLatin1(modalityName(info.modality)))
                     .arg(info.segment);
  if (info.modality == Modality::Text) {
    text += QStringLiteral("\ntext token %1").arg(textIndexOf_[token]);
  } else if (info.modality == Modality::Audio) {
    text += QStringLiteral("\naudio token %1 · token %2 of its run")
                .arg(audioIndexOf_[token])
                .arg(info.frame);
  } else {
    text += QStringLiteral("\nvisual token %1 · cell frame %2, row %3, col %4")
                .arg(visualIndexOf_[token])
                .arg(info.frame)
                .arg(info.row)
                .arg(info.col);
  }
  text +=
      QStringLiteral("\nid (t, h, w) = (%1, %2, %3)").arg(number(p[0]), number(p[1]), number(p[2]));
  if (tiles_->covers(token) && info.segment < static_cast<int>(layout_.segments.size())) {
    const Segment& seg = layout_.segments[static_cast<std::size_t>(info.segment)];
    const QString file =
        QString::fromStdString(seg.source.frames.empty() ? seg.source.path : seg.source.frames[0]);
    text += seg.kind == SegmentKind::Video
                ? QStringLiteral("\ntile: frame %1 of the video, the first of temporal pair %2")
                      .arg(firstFrameOfPair(info.frame))
                      .arg(info.frame)
                : QStringLiteral("\ntile: patch of %1").arg(QFileInfo(file).fileName());
  }
  return text;
}

void PositionSpaceView::onHover(QPoint pos) {
  const long token = tokenAt(pos);
  if (token < 0) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(mapToGlobal(pos), describeToken(token), this);
}

void PositionSpaceView::onClick(QPoint pos) {
  const long token = tokenAt(pos);
  if (token < 0) return;
  if (textIndexOf_[token] >= 0) {
    emit textTokenClicked(static_cast<int>(textIndexOf_[token]));
  } else if (audioIndexOf_[token] >= 0) {
    emit audioTokenClicked(audioIndexOf_[token]);
  } else {
    emit visualTokenClicked(visualIndexOf_[token]);
  }
}

}  // namespace ropescope::ui
