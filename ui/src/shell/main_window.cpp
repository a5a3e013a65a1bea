#include "shell/main_window.h"
#include "shell/shortcut_guard.h"
#include "shell/wheel_guard.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPalette>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyleFactory>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <vtkCamera.h>

#include <algorithm>
#include <functional>

#include "attention/attention_view.h"
#include "attention/token_name.h"
#include "charts/budget_view.h"
#include "charts/charts_panel.h"
#include "charts/compare_view.h"
#include "charts/layers_view.h"
#include "charts/modality_view.h"
#include "charts/principles_view.h"
#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "figures/figure_menu.h"
#include "model/scene_model.h"
#include "picture/picture_importer.h"
#include "picture/picture_view.h"
#include "platform/file_dialogs.h"
#include "platform/memory_release.h"
#include "ropescope/check_ids.h"
#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/tokens_file.h"
#include "shell/autosave.h"
#include "shell/background_progress.h"
#include "sound/sound_importer.h"
#include "sound/sound_spectrogram.h"
#include "sound/sound_view.h"
#include "sound/sound_waveform.h"
#include "space/scene_space_view.h"
#include "style/elided_label.h"
#include "style/metric_text.h"
#include "style/scrolling.h"
#include "teaching/animation_dialog.h"
#include "teaching/formula_panel.h"
#include "teaching/phasor_view.h"
#include "teaching/tour.h"

namespace ropescope::ui {

namespace {

constexpr int kMaxRecent = 8;

QPalette darkPalette() {
  QPalette p;
  const QColor window(45, 47, 52), base(30, 32, 36), text(225, 225, 225), disabled(130, 130, 130);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, QColor(250, 250, 220));
  p.setColor(QPalette::ToolTipText, Qt::black);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::red);
  p.setColor(QPalette::Mid, QColor(150, 150, 150));
  p.setColor(QPalette::Link, QColor(100, 160, 255));
  p.setColor(QPalette::Highlight, QColor(60, 110, 190));
  p.setColor(QPalette::HighlightedText, Qt::white);
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  return p;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), model_(new SceneModel(this)) {
  setObjectName(QStringLiteral("ropescopeMainWindow"));
  // Scrolling the scene panel must not change the fields passing under the pointer.
  QCoreApplication::instance()->installEventFilter(new WheelGuard(this));
  savedScene_ = model_->scene();
  buildSceneDock();
  buildCentralViews();
  buildImporters();
  buildStatusBar();
  buildAttentionDock();
  buildTour();
  memoryRelease_ = new MemoryRelease(this);
  // The window's own observer of edits, connected after every view's: refreshViews runs last
  // and lays out what the views' new texts resized before the window paints (refreshViews).
  // The views and formula panels observe the model themselves; the window keeps its status
  // bar and title.
  connect(model_, &SceneModel::changed, this, &MainWindow::refreshViews);
  connect(model_, &SceneModel::biasChanged, this, &MainWindow::refreshViews);
  buildMenus();
  // The menus' shortcuts work from the scene panel's text fields too (Ctrl+E did nothing there).
  QList<QAction*> withShortcuts;
  for (QAction* a : findChildren<QAction*>())
    if (!a->shortcut().isEmpty()) withShortcuts << a;
  QCoreApplication::instance()->installEventFilter(new ShortcutGuard(withShortcuts, this));
  setDarkPalette(true);
  refreshViews();
  resize(1500, 950);  // on a large screen; fitted to a smaller one
  fitToScreen();
  fitSceneDock();
}

// The scene panel, scrolling, in the left dock.
void MainWindow::buildSceneDock() {
  panel_ = new ScenePanel(model_);
  auto* scroll = new QScrollArea;
  scroll->setWidget(panel_);
  scroll->setWidgetResizable(true);
  // Narrower than the panel (the tour open on a 1366 x 768 screen, the window at its smallest)
  // it scrolls sideways too: without the bar the fields' right edges and the Remove button were
  // cut off out of reach. A minimum as wide as the panel made the window wider than the screen.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  scroll->setMinimumWidth(340);
  sceneDock_ = new QDockWidget(tr("Scene"), this);
  sceneDock_->setObjectName(QStringLiteral("sceneDock"));
  sceneDock_->setWidget(scroll);
  sceneDock_->setFeatures(QDockWidget::DockWidgetMovable);
  addDockWidget(Qt::LeftDockWidgetArea, sceneDock_);
}

// The scene dock opens as wide as the panel with its vertical bar: at the scroll area's minimum
// the panel was a few pixels wider than its view and scrolled sideways on every screen. At most
// two fifths of the window, so that the views keep the rest on a small screen; never narrower
// than the user made it.
void MainWindow::fitSceneDock() {
  auto* scroll = qobject_cast<QScrollArea*>(sceneDock_->widget());
  const int wanted =
      std::min(panel_->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() +
                   2 * scroll->frameWidth(),
               width() * 2 / 5);
  if (sceneDock_->width() < wanted) resizeDocks({sceneDock_}, {wanted}, Qt::Horizontal);
}

// The attention dock, docked and shown, takes at least 45 % of the window's height.
void MainWindow::fitAttentionDock() {
  const int want = height() * 45 / 100;
  if (attentionDock_->isVisible() && !attentionDock_->isFloating() &&
      attentionDock_->height() < want)
    resizeDocks({attentionDock_}, {want}, Qt::Vertical);
}

// A dock that opens (the tour, the attention view) takes its room from the scene panel, which
// then scrolls sideways; once it closes, the panel gets its width back (after the window has
// laid out the closed dock's room).
void MainWindow::refitSceneDockWhenHidden(QDockWidget* dock) {
  connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (!visible) QMetaObject::invokeMethod(this, &MainWindow::fitSceneDock, Qt::QueuedConnection);
  });
}

// The 3-D view (or the four compare views) over its formula panel, beside the tabs of charts,
// picture, phasors, sound and modalities.
void MainWindow::buildCentralViews() {
  view_ = new SceneSpaceView(model_);
  view_->setObjectName(QStringLiteral("positionSpace"));
  compare_ = new CompareView(model_);
  stack_ = new QStackedWidget;
  stack_->addWidget(view_);
  stack_->addWidget(compare_);
  charts_ = new ChartsPanel(model_);
  picture_ = new PictureView(model_);
  sideTabs_ = new QTabWidget;
  sideTabs_->setObjectName(QStringLiteral("sideTabs"));
  sideTabs_->addTab(charts_, tr("Charts"));
  sideTabs_->addTab(picture_, tr("Picture"));
  phasor_ = new PhasorView(model_);
  sideTabs_->addTab(phasor_, tr("Phasors"));
  sound_ = new SoundView(model_);
  sideTabs_->addTab(sound_, tr("Sound"));
  modalities_ = new ModalityView(model_);
  sideTabs_->addTab(modalities_, tr("Modalities"));
  budget_ = new BudgetView(model_);
  budget_->setObjectName(QStringLiteral("budgetView"));
  sideTabs_->addTab(budget_, tr("Budget"));
  principles_ = new PrinciplesView(model_);
  principles_->setObjectName(QStringLiteral("principlesView"));
  sideTabs_->addTab(principles_, tr("Principles"));
  layers_ = new LayersView(model_);
  layers_->setObjectName(QStringLiteral("layersView"));
  sideTabs_->addTab(layers_, tr("Layers"));
  sideTabs_->setTabToolTip(sideTabs_->indexOf(layers_),
                           tr("The loaded model's layers and the rotary of each: pick one"));
  connect(layers_, &LayersView::layerPicked, this,
          [this](const QString& line) { statusBar()->showMessage(line, 10000); });
  splitter_ = new QSplitter(Qt::Horizontal);
  // The 3-D view with its formula panel under it.
  auto* viewColumn = new QWidget;
  auto* viewLayout = new QVBoxLayout(viewColumn);
  viewLayout->setContentsMargins(0, 0, 0, 0);
  viewLayout->setSpacing(2);
  viewLayout->addWidget(stack_, 1);
  positionFormulas_ = new FormulaPanel;
  positionFormulas_->setObjectName(QStringLiteral("positionFormulas"));
  positionFormulas_->follow(model_, &ropescope::ui::positionFormulas);
  viewLayout->addWidget(positionFormulas_);
  splitter_->addWidget(viewColumn);
  splitter_->addWidget(sideTabs_);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 2);
  setCentralWidget(splitter_);

  connect(view_, &PositionSpaceView::textTokenClicked, model_, &SceneModel::setSelectedText);
  connect(view_, &PositionSpaceView::visualTokenClicked, model_, &SceneModel::setSelectedVisual);
  // Audio tokens: picked in either view, highlighted in both.
  connect(view_, &PositionSpaceView::audioTokenClicked, sound_, &SoundView::setSelectedAudio);
  connect(view_, &PositionSpaceView::audioTokenClicked, view_,
          &PositionSpaceView::setSelectedAudio);
  connect(sound_, &SoundView::audioTokenClicked, view_, &PositionSpaceView::setSelectedAudio);
  // The pick is a token of the layout it was made in: another layout drops it in both (the 3-D
  // view kept highlighting "audio token 37" of a new sound while the sound tab showed none).
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    if (!parts.touches(ScenePart::Layout)) return;
    view_->setSelectedAudio(-1);
    sound_->setSelectedAudio(-1);
  });
}

// Pictures and sounds from menus and drops: a refused file is named beside the segment list and
// in the status bar, without a modal dialog, and the scene keeps everything else.
void MainWindow::buildImporters() {
  importer_ = new PictureImporter(model_, this);
  SegmentListEditor* segments = panel_->segmentEditor();
  connect(segments, &SegmentListEditor::filesDropped, this, &MainWindow::addDroppedFiles);
  soundImporter_ = new SoundImporter(model_, this);
  // A refused file: its message beside the list, and its first line in the status bar only
  // where the list is out of sight (the message there hid the scene's PTD and bias for 10 s).
  // Added: the tab that shows it comes to the front.
  const auto report = [this, segments](std::function<void()> showIt) {
    return [this, segments, showIt](const QString& message) {
      segments->setFileMessage(message);
      if (message.isEmpty())
        showIt();
      else if (!segments->isVisible() || segments->visibleRegion().isEmpty())
        statusBar()->showMessage(message.section(QLatin1Char('\n'), 0, 0), 10000);
    };
  };
  connect(soundImporter_, &SoundImporter::imported, this,
          report([this] { showSideTab(QStringLiteral("sound")); }));
  connect(importer_, &PictureImporter::imported, this, report([this] { showPictureTab(true); }));
  setAcceptDrops(true);
}

void MainWindow::buildStatusBar() {
  status_ = new ElidedLabel;  // shortened with "…" where the bar is narrow, whole as tooltip
  status_->setObjectName(QStringLiteral("statusMetrics"));
  staleStatus_ = new QLabel;
  staleStatus_->setStyleSheet(QStringLiteral("color: #e04040; font-weight: bold;"));
  statusBar()->addWidget(status_, 1);
  statusBar()->addPermanentWidget(staleStatus_);
  // The background work of a large scene, with its Cancel (and Esc).
  progress_ = new BackgroundProgress(model_, this);
  statusBar()->addPermanentWidget(progress_);
}

// The attention preview in a bottom dock, hidden until asked for: it computes only while shown.
void MainWindow::buildAttentionDock() {
  attention_ = new AttentionView(model_);
  attention_->setObjectName(QStringLiteral("attentionView"));
  attentionDock_ = new QDockWidget(tr("Attention"), this);
  attentionDock_->setObjectName(QStringLiteral("attentionDock"));
  // In a scroll area: the dock takes what room the window has, and the window never grows
  // past the screen to give the view its full size.
  attentionDock_->setWidget(scrolling(attention_));
  addDockWidget(Qt::BottomDockWidgetArea, attentionDock_);
  attentionDock_->hide();
  // Opened, the dock takes a readable share of the window's height: left to the layout it got
  // what the central tabs' minimum heights spared (118 px on a 1366x768 screen). Once the dock
  // is laid out (queued), so that a dock the user made taller keeps its height.
  refitSceneDockWhenHidden(attentionDock_);
  connect(attentionDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible)
      QMetaObject::invokeMethod(this, &MainWindow::fitAttentionDock, Qt::QueuedConnection);
  });
  auto* attentionStatus = new QLabel(tr("attention: not started (View \xe2\x86\x92 Attention)"));
  attentionStatus->setObjectName(QStringLiteral("statusAttention"));
  statusBar()->addPermanentWidget(attentionStatus);
  connect(attention_, &AttentionView::backendChanged, attentionStatus, &QLabel::setText);
  connect(attention_, &AttentionView::noteRaised, this,
          [this](const QString& note) { statusBar()->showMessage(note, 15000); });
  // The dock previews the layer the Layers tab shows (its mask and rotary, or a NoPE layer's
  // temperature: previewLayer); the settings the preview does not model go to the status bar
  // once per model.
  auto held = std::make_shared<std::shared_ptr<const LayerStack>>();
  attention_->setLayerSource([this, held]() -> std::pair<std::shared_ptr<const LayerStack>, int> {
    const int layer = layers_ ? layers_->previewLayer() : -1;
    if (layer < 0 || !layers_->stack()) return {nullptr, -1};
    const LayerStack& now = *layers_->stack();
    if (!*held || (*held)->name != now.name || (*held)->layers != now.layers) {
      *held = std::make_shared<const LayerStack>(now);
      QStringList lines;
      for (const std::string& w : now.unmodelled) lines << QString::fromStdString(w);
      if (!lines.isEmpty()) statusBar()->showMessage(lines.join(QStringLiteral("  |  ")), 15000);
    }
    return {*held, layer};
  });
  // A pick that keeps the scene's rotary (layer 0 to 1, a NoPE layer) changes only the mask or
  // the temperature: ask again.
  connect(layers_, &LayersView::layerPicked, attention_, &AttentionView::refreshLayer);
  // The query's row goes to the Picture tab's attention overlay, painted through the pixel map.
  connect(attention_, &AttentionView::resultShown, this, [this] {
    const AttentionResult* r = attention_->shownResult();
    if (!r) return;
    PictureAttention a;
    a.row.assign(r->textRow.begin(), r->textRow.end());
    a.query = r->request.textToken;
    if (a.query >= 0) a.queryName = attentionTokenName(model_->metrics().ids.tokens, a.query);
    a.what = r->request.value == AttentionValue::Softmax ? tr("softmax") : tr("logits");
    a.logScale = attention_->logScaleActive();
    a.layout = r->request.scene.layout;
    picture_->setAttention(std::move(a));
  });
}

// Autosave, and the guided tour in a dock of its own.
void MainWindow::buildTour() {
  autosave_ = new Autosave(
      model_, [this] { return isModified(); }, [this] { return currentFile_; }, this);
  // During the tour the user's own scene is kept, not the step's.
  autosave_->setSceneSource([this] {
    if (tour_ && tour_->showsItsScene()) return tour_->userScene();
    return model_->isStale() ? model_->validScene() : model_->scene();
  });
  // The guided tour: a non-modal dock, hidden until Help → Tour (F1).
  tour_ = new TourPanel(model_, [this](const TourStep& step) {
    showSideTab(step.tab);
    if (step.phasorDirection >= 0)
      phasor_->setDirection(static_cast<PhasorView::Direction>(step.phasorDirection));
    if (step.phasorDistance >= 0) phasor_->setDistance(step.phasorDistance);
    refreshTitle();  // the step's scene is the tour's, not an unsaved change
  });
  tourDock_ = new QDockWidget(tr("Tour"), this);
  tourDock_->setObjectName(QStringLiteral("tourDock"));
  tourDock_->setWidget(scrolling(tour_));
  addDockWidget(Qt::RightDockWidgetArea, tourDock_);
  tourDock_->hide();
  connect(tour_, &TourPanel::started, this, &MainWindow::keepBeforeTour);
  connect(tour_, &TourPanel::finished, this, &MainWindow::giveBackAfterTour);
  connect(tour_, &TourPanel::finished, tourDock_, &QDockWidget::hide);
  refitSceneDockWhenHidden(tourDock_);
}

void MainWindow::fitToScreen() {
  QScreen* s = screen();
  if (!s) return;
  const QRect avail = s->availableGeometry();
  // The window manager's frame: known once it has framed the window; before, a generous guess
  // (a title bar and borders), so that the frame fits when it comes.
  QMargins frame(
      frameGeometry().left() - geometry().left(), geometry().top() - frameGeometry().top(),
      frameGeometry().right() - geometry().right(), frameGeometry().bottom() - geometry().bottom());
  if (frame.isNull()) frame = QMargins(8, 40, 8, 8);
  if (isMaximized() || isFullScreen()) return;  // the window manager fits those
  const QSize room = avail.size().shrunkBy(frame);
  const QSize size = this->size().boundedTo(room).expandedTo(minimumSizeHint().boundedTo(room));
  if (size != this->size()) resize(size);
  const QSize outer = size.grownBy(frame);
  // pos() is the frame's top-left corner.
  const int x = std::clamp(pos().x(), avail.left(),
                           std::max(avail.left(), avail.right() + 1 - outer.width()));
  const int y = std::clamp(pos().y(), avail.top(),
                           std::max(avail.top(), avail.bottom() + 1 - outer.height()));
  if (QPoint(x, y) != pos()) move(x, y);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  buildFileMenu();
  buildEditMenu();
  buildViewMenu();
  buildHelpMenus();
}

// Undo and redo of scene edits (the model's history). In a text field Ctrl+Z stays the field's
// own undo of the typing it has not handed over yet; elsewhere, and in a field with nothing of
// its own left to undo, it undoes the last edit of the scene (shell/shortcut_guard.h).
void MainWindow::buildEditMenu() {
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  undoAction_ = edit->addAction(tr("&Undo"), model_, &SceneModel::undo);
  undoAction_->setShortcuts(QKeySequence::Undo);
  redoAction_ = edit->addAction(tr("&Redo"), model_, &SceneModel::redo);
  redoAction_->setShortcuts(QKeySequence::Redo);
  const auto refresh = [this] {
    undoAction_->setEnabled(model_->canUndo());
    redoAction_->setEnabled(model_->canRedo());
  };
  connect(model_, &SceneModel::historyChanged, this, refresh);
  refresh();
}

void MainWindow::buildFileMenu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open scene\xe2\x80\xa6"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &recent"));
  file->addAction(tr("Load &ids\xe2\x80\xa6"), this, &MainWindow::loadIdsDialog)
      ->setToolTip(tr("Your own position ids (.npy, [N,3] or [3,N] t,h,w per token) over the "
                      "current layout, as the design \"Ids from a file\""));
  modelMenu_ = file->addMenu(tr("Open &model"));
  modelMenu_->setObjectName(QStringLiteral("modelMenu"));
  file->addAction(tr("Open &processor output\xe2\x80\xa6"), this, &MainWindow::openTokensDialog)
      ->setToolTip(tr("A tokens .json saved from a transformers processor (input_ids, "
                      "image_grid_thw, ...) becomes the layout under the loaded model"));
  file->addAction(tr("&Check position ids\xe2\x80\xa6"), this, &MainWindow::checkIdsDialog)
      ->setToolTip(tr("Compare a position_ids .npy dumped from the model with the scene's ids "
                      "under its rule set; differing tokens are marked in the 3-D view"));
  file->addSeparator();
  QAction* saveAction = file->addAction(tr("&Save"), this, [this] { save(); });
  saveAction->setShortcut(QKeySequence::Save);
  QAction* saveAsAction = file->addAction(tr("Save &as\xe2\x80\xa6"), this, [this] { saveAs(); });
  saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  file->addSeparator();
  QAction* exportPng =
      file->addAction(tr("&Export 3-D view as PNG\xe2\x80\xa6"), this, &MainWindow::exportViewPng);
  exportPng->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  buildFigureMenus(file->addMenu(tr("Export &figure")));
  file->addAction(tr("Export &animation\xe2\x80\xa6"), this, &MainWindow::exportAnimation)
      ->setToolTip(tr("Sweep a distance (phasors) or \xce\xb1, R, \xce\xb2 (3-D view) into a GIF "
                      "or PNG frames"));
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  QAction* addImage = new QAction(tr("Add &image\xe2\x80\xa6"), this);
  addImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  connect(addImage, &QAction::triggered, this, [this] { importer_->imageDialog(this); });
  QAction* addVideo = new QAction(tr("Add &video\xe2\x80\xa6"), this);
  addVideo->setToolTip(tr("A folder of frames, several frame files or an animated GIF"));
  connect(addVideo, &QAction::triggered, this, [this] { importer_->videoDialog(this); });
  QAction* addSound = new QAction(tr("Add &sound\xe2\x80\xa6"), this);
  addSound->setToolTip(tr("A WAV, FLAC, OGG or MP3 file: an aud: segment of audio tokens"));
  connect(addSound, &QAction::triggered, this, [this] { soundImporter_->soundDialog(this); });
  file->insertActions(saveAction, {addImage, addVideo, addSound});
  file->insertSeparator(saveAction);
  rebuildRecentMenu();
  rebuildModelMenu();
}

// The figure export menu under File, and each view's context menu of the figures it shows.
void MainWindow::buildFigureMenus(QMenu* exportMenu) {
  figures_ = new FigureMenu(model_, this);
  figures_->fillExportMenu(exportMenu);
  figures_->addContextMenu(charts_, FigureSurface::Charts);
  figures_->addContextMenu(picture_, FigureSurface::Picture);
  figures_->addContextMenu(attention_, FigureSurface::Attention);
  figures_->setPhasorView(phasor_);
  figures_->setPictureView(picture_);
  figures_->setSoundView(sound_);
  figures_->addContextMenu(phasor_->canvas(), FigureSurface::Phasor);
  figures_->addContextMenu(sound_->waveform(), FigureSurface::Sound);
  figures_->addContextMenu(sound_->spectrogramCanvas(), FigureSurface::Sound);
  connect(view_, &VtkView::contextClicked, this,
          [this](QPoint pos) { figures_->popup(view_, pos, FigureSurface::Space); });
  for (int i = 0; i < compare_->viewCount(); ++i) {
    PositionSpaceView* v = compare_->view(i);
    connect(v, &VtkView::contextClicked, this,
            [this, v](QPoint pos) { figures_->popup(v, pos, FigureSurface::Compare); });
  }
}

void MainWindow::buildViewMenu() {
  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  auto* toolbar = addToolBar(tr("View"));
  toolbar->setObjectName(QStringLiteral("viewToolbar"));
  toolbar->setMovable(false);

  compareAction_ = viewMenu->addAction(tr("&Compare designs"));
  compareAction_->setCheckable(true);
  compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
  compareAction_->setToolTip(tr("hard, unordered, spatial and circle side by side (Ctrl+M)"));
  connect(compareAction_, &QAction::toggled, this, &MainWindow::setCompareMode);
  toolbar->addAction(compareAction_);
  toolbar->addSeparator();

  toolbar->addWidget(new QLabel(tr(" Colour by ")));
  colorBy_ = new QComboBox;
  colorBy_->addItems({tr("grid cell (row \xc3\x97 col)"), tr("modality")});
  toolbar->addWidget(colorBy_);
  connect(colorBy_, &QComboBox::currentIndexChanged, this, [this](int i) {
    const ColorMode mode = i == 0 ? ColorMode::GridCell : ColorMode::Modality;
    view_->setColorMode(mode);
    compare_->setColorMode(mode);
    figures_->options().colorByModality = mode == ColorMode::Modality;  // exported as shown
  });
  QAction* toggleColor = viewMenu->addAction(tr("Toggle colour by &modality"), this, [this] {
    colorBy_->setCurrentIndex(1 - colorBy_->currentIndex());
  });
  toggleColor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
  toolbar->addSeparator();

  addCameraActions(viewMenu, toolbar);
  viewMenu->addSeparator();
  auto* facing = new QActionGroup(this);
  QAction* faceCamera = viewMenu->addAction(tr("Tiles face &camera"));
  QAction* inPlane = viewMenu->addAction(tr("Tiles lie in ring &plane"));
  faceCamera->setToolTip(tr("Picture patches turn to the viewer: always readable"));
  inPlane->setToolTip(tr("Picture patches lie in the plane of their tokens (the cone's ring)"));
  for (QAction* a : {faceCamera, inPlane}) {
    a->setCheckable(true);
    facing->addAction(a);
  }
  faceCamera->setChecked(true);
  connect(inPlane, &QAction::toggled, this, [this](bool on) {
    view_->setTileFacing(on ? TileFacing::RingPlane : TileFacing::Camera);
  });

  viewMenu->addSeparator();
  darkAction_ = viewMenu->addAction(tr("&Dark palette"));
  darkAction_->setCheckable(true);
  darkAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  connect(darkAction_, &QAction::toggled, this, &MainWindow::setDarkPalette);

  viewMenu->addSeparator();
  QAction* attention = attentionDock_->toggleViewAction();
  attention->setText(tr("&Attention"));
  attention->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
  attention->setToolTip(tr("RoPE logits and softmax of the scene (Ctrl+Shift+A)"));
  viewMenu->addAction(attention);
}

// The camera presets and the reset, in the View menu and on the toolbar.
void MainWindow::addCameraActions(QMenu* viewMenu, QToolBar* toolbar) {
  viewMenu->addSeparator();
  struct Preset {
    QString name;
    CameraPreset preset;
    QKeySequence key;
    QString tip;
  };
  const Preset presets[] = {
      {tr("Default view"), CameraPreset::Default, QKeySequence(Qt::CTRL | Qt::Key_1),
       tr("Oblique view of t, h, w (Ctrl+1)")},
      {tr("Down the text axis"), CameraPreset::DownTextAxis, QKeySequence(Qt::CTRL | Qt::Key_2),
       tr("Look along (1,1,1): the ring of a circle design shows round (Ctrl+2)")},
      {tr("Side on"), CameraPreset::SideOn, QKeySequence(Qt::CTRL | Qt::Key_3),
       tr("Text axis horizontal, the visual plane edge-on (Ctrl+3)")},
  };
  for (const Preset& p : presets) {
    QAction* a = viewMenu->addAction(p.name);
    a->setShortcut(p.key);
    a->setToolTip(p.tip);
    const CameraPreset preset = p.preset;
    connect(a, &QAction::triggered, this, [this, preset] { applyPreset(preset); });
    toolbar->addAction(a);
  }
  QAction* reset = viewMenu->addAction(tr("&Reset camera"));
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  reset->setToolTip(tr("Back to the default view (Ctrl+0)"));
  connect(reset, &QAction::triggered, this, [this] { applyPreset(CameraPreset::Default); });
  toolbar->addAction(reset);
}

// The Presets menu (the papers' figures as scenes) and Help.
void MainWindow::buildHelpMenus() {
  figures_->fillPresetsMenu(
      menuBar()->addMenu(tr("&Presets")),
      [this](const Scene& scene, const std::string& view) { openPreset(scene, view); });
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* tour = help->addAction(tr("&Tour"), this, &MainWindow::startTour);
  tour->setShortcut(QKeySequence(Qt::Key_F1));
  tour->setToolTip(tr("From hard 1-D ids through M-RoPE to the cone, step by step (F1)"));
  help->addAction(tr("&About ropescope"), this, &MainWindow::about);
}

void MainWindow::refreshViews() {
  const SceneMetrics& m = model_->metrics();
  const Scene& valid = model_->validScene();
  // Marks of a check, and its line in the status bar, belong to the scene it checked: the line
  // stayed after the layout had changed to one without the checked picture.
  if (model_->scene() != checkedScene_ && !idsCheck_.isEmpty()) {
    view_->setMarkedTokens({});
    if (statusBar()->currentMessage() == checkShown_) statusBar()->clearMessage();
    statusBar()->setToolTip(QString());
    idsCheck_.clear();
    checkShown_.clear();
  }
  if (memoryRelease_) memoryRelease_->sceneShown(m.ids.size());

  // An undefined PTD and bias spread share their reason (no text or no visual token): said once.
  // Audio tokens are counted apart: PTD and bias spread here run from text to visual.
  const std::size_t audio = valid.layout.audioCount();
  const QString audioText = audio ? tr(" + %1 audio").arg(audio) : QString();
  // While the bias spread comes in, the time is of the rest only: said so.
  const QString took = QString::number(model_->computeMilliseconds(), 'f', 2) +
                       (m.biasPending ? tr(" ms so far") : tr(" ms"));
  status_->setFullText(
      tr("PTD %1  \xc2\xb7  bias spread %2  \xc2\xb7  %3 text + %4 visual%7 tokens%6  "
         "\xc2\xb7  computed in %5")
          // A spread undefined on its own (not computed, cancelled) says why.
          .arg(metricText(m.ptd.ptd), biasSpreadText(m, m.ptd.defined()))
          .arg(m.ptd.nText)
          .arg(m.ptd.nVisual)
          .arg(took)
          .arg(m.ptd.defined()
                   ? QString()
                   : QStringLiteral(" (%1)").arg(QString::fromStdString(m.ptd.undefinedReason)))
          .arg(audioText));
  staleStatus_->setText(
      model_->isStale() ? tr("input invalid \xe2\x80\x94 showing last valid scene")
      : model_->computing()
          ? tr("computing the edited scene: %1 text + %2 visual tokens\xe2\x80\xa6")
                .arg(model_->scene().layout.textCount())
                .arg(model_->scene().layout.visualCount())
          : QString());
  refreshTitle();
  // The last observer of an edit: lay out now what the views' new texts resized (this bar, the
  // formula panel, a chart's title). Queued behind the window's paint request, those layouts
  // repainted the window a second and a third time per click, and on software OpenGL each
  // repaint composes the whole window. Twice: a layout can ask for its parent's.
  for (int pass = 0; pass < 2; ++pass)
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
}

QString MainWindow::statusText() const {
  return status_->fullText();
}

QString MainWindow::staleStatusText() const {
  return staleStatus_->text();
}

bool MainWindow::isModified() const {
  // A tour step's scene is not the user's edit: what counts is the scene the tour gives back.
  const Scene& mine = tour_ && tour_->showsItsScene() ? tour_->userScene() : model_->scene();
  // Selecting a token is no edit, though the file keeps the selection (sameDocument).
  return !sameDocument(mine, savedScene_);
}

void MainWindow::refreshTitle() {
  // Every file dialog starts beside the scene (file_dialogs.h) unless its kind has a folder of
  // its own.
  setSceneFolder(currentFile_.isEmpty() ? QString() : QFileInfo(currentFile_).absolutePath());
  const QString name = currentFile_.isEmpty() ? tr("untitled") : QFileInfo(currentFile_).fileName();
  setWindowTitle(QStringLiteral("%1[*] — ropescope").arg(name));
  setWindowModified(isModified());
}

void MainWindow::setCompareMode(bool on) {
  if (compareAction_->isChecked() != on) compareAction_->setChecked(on);  // re-enters once
  stack_->setCurrentIndex(on ? 1 : 0);
  if (on) compare_->refresh();
}

bool MainWindow::compareMode() const {
  return stack_->currentIndex() == 1;
}

void MainWindow::applyPreset(CameraPreset preset) {
  if (compareMode()) {
    compare_->applyPreset(preset);
  } else {
    view_->applyPreset(preset);
  }
}

void MainWindow::setDarkPalette(bool dark) {
  dark_ = dark;
  if (darkAction_ && darkAction_->isChecked() != dark) darkAction_->setChecked(dark);
  QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
  view_->setDark(dark);
  compare_->setDark(dark);
  modalities_->setDark(dark);
  budget_->setDark(dark);
  charts_->setDark(dark);
  phasor_->setDark(dark);
  sound_->setDark(dark);
  positionFormulas_->setDark(dark);
}

bool MainWindow::openFile(const QString& path) {
  try {
    const SceneLoadReport report = loadSceneFileReport(path.toStdString());
    QStringList problems;
    for (const LayoutProblem& p : report.problems)
      problems << tr("left out %1: %2")
                      .arg(QString::fromStdString(p.text), QString::fromStdString(p.message));
    model_->setScene(report.scene);
    model_->clearHistory();  // an opened scene starts its own history
    currentFile_ = path;
    // Without its missing pictures the scene is not what the file holds: saving is offered.
    savedScene_ = problems.isEmpty() ? report.scene : Scene{};
    addRecent(path);
    refreshTitle();
    // The left-out files, then what was read despite a warning (layoutWarnings).
    QStringList lines = problems;
    for (const std::string& w : layoutWarnings(report.scene.layout))
      lines << tr("warning: %1").arg(QString::fromStdString(w));
    panel_->segmentEditor()->setFileMessage(lines.join(QLatin1Char('\n')));
    layersOfShippedModel(report.scene.model);
    bool picture = false;
    for (const Segment& s : report.scene.layout.segments) picture = picture || shownOnPictureTab(s);
    showPictureTab(picture);
    statusBar()->showMessage(problems.isEmpty() ? tr("Opened %1").arg(path)
                                                : tr("Opened %1 without %n picture(s)", nullptr,
                                                     static_cast<int>(problems.size()))
                                                      .arg(path),
                             problems.isEmpty() ? 4000 : 10000);
    return true;
  } catch (const std::exception& e) {
    // Core's message names the file and the problem in one clause.
    QMessageBox::warning(this, tr("Open scene"), QString::fromStdString(e.what()));
    return false;
  }
}

bool MainWindow::saveTo(const QString& path) {
  try {
    saveSceneFile(model_->scene(), path.toStdString());  // atomic: temporary file + rename
    currentFile_ = path;
    savedScene_ = model_->scene();
    autosave_->discard();
    addRecent(path);
    refreshTitle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Save scene"),
                         tr("Could not save %1:\n%2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

bool MainWindow::save() {
  return currentFile_.isEmpty() ? saveAs() : saveTo(currentFile_);
}

bool MainWindow::saveAs() {
  const QString path =
      askSaveFile(this, FileKind::Scene, tr("Save scene"),
                  currentFile_.isEmpty() ? QStringLiteral("scene.json") : currentFile_,
                  tr("ropescope scene (*.json)"));
  return !path.isEmpty() && saveTo(path);
}

bool MainWindow::loadIds(const QString& path) {
  try {
    model_->setScene(withIdsFile(model_->scene(), path.toStdString()));
    statusBar()->showMessage(tr("Loaded ids from %1").arg(path), 4000);
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Load ids"), QString::fromStdString(e.what()));
    return false;
  }
}

void MainWindow::loadIdsDialog() {
  const QString path =
      askOpenFile(this, FileKind::Ids, tr("Load ids"), tr("NumPy array (*.npy);;All files (*)"));
  if (!path.isEmpty()) loadIds(path);
}

void MainWindow::rebuildModelMenu() {
  modelMenu_->clear();
  modelMenu_->addAction(tr("Checkpoint &folder\xe2\x80\xa6"), this, &MainWindow::openModelDialog)
      ->setToolTip(tr("A downloaded model folder with config.json (and preprocessor_config.json)"));
  modelMenu_->addSeparator();
  for (const std::string& name : shippedModelNames()) {
    const QString n = QString::fromStdString(name);
    modelMenu_->addAction(n, this, [this, n] { openModel(n); });
  }
}

bool MainWindow::openModel(const QString& dirOrName) {
  try {
    ModelConfig config = readModelConfig(dirOrName.toStdString());
    model_->setScene(applyModel(model_->scene(), config));
    modelConfig_ = std::move(config);
    budget_->setModelMaxPositions(model_->scene().model, modelConfig_->maxPositionEmbeddings);
    layers_->setModel(*modelConfig_, dirOrName);
    QString what = QString::fromStdString(modelConfig_->title);
    // A rope block per layer type: say whose rotary the views show (the CLI's --layer-type).
    if (!modelConfig_->layerTypes.empty())
      what += tr("; rotary of its %1 layers (of %2)")
                  .arg(QString::fromStdString(modelConfig_->layerType),
                       QString::fromStdString(joinNames(modelConfig_->layerTypes)));
    statusBar()->showMessage(
        tr("Opened model %1 (%2)").arg(QString::fromStdString(modelConfig_->name), what), 8000);
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Open model"), QString::fromStdString(e.what()));
    return false;
  }
}

void MainWindow::layersOfShippedModel(const std::string& name) {
  // A scene saved with a shipped model's name: its stack is known without opening the model
  // (its rotary is the scene file's own; only the Layers tab reads the model).
  if (name.empty() || (modelConfig_ && modelConfig_->name == name)) return;
  const std::vector<std::string> shipped = shippedModelNames();
  if (std::find(shipped.begin(), shipped.end(), name) == shipped.end()) return;
  try {
    modelConfig_ = readModelConfig(name);
    layers_->setModel(*modelConfig_, QString::fromStdString(name));
  } catch (const std::exception&) {
    // The scene opened; the Layers tab says it has no model.
  }
}

void MainWindow::openModelDialog() {
  const QString dir = askFolder(this, FileKind::Model, tr("Open model folder"));
  if (!dir.isEmpty()) openModel(dir);
}

bool MainWindow::tokensModelReady() {
  const std::string sceneModel = model_->scene().model;
  if ((!modelConfig_ || modelConfig_->name != sceneModel) && !sceneModel.empty()) {
    try {  // a scene saved with a shipped model's name
      modelConfig_ = readModelConfig(sceneModel);
    } catch (const std::exception&) {
      modelConfig_.reset();
    }
  }
  if (!modelConfig_ || sceneModel.empty()) {
    QMessageBox::warning(this, tr("Open processor output"),
                         tr("Open a model first (File \xe2\x86\x92 Open model): its token ids "
                            "and patch sizes read the tokens file"));
    return false;
  }
  return true;
}

bool MainWindow::openTokens(const QString& path) {
  if (!tokensModelReady()) return false;
  try {
    const TokenInput input = readTokensFile(path.toStdString());
    Scene next = applyModel(model_->scene(), *modelConfig_);
    // Runs that disagree with their grids are read as transformers reads them, with a warning.
    std::vector<std::string> warnings;
    next.layout = layoutFromTokens(input, *modelConfig_, nullptr, {std::nullopt, &warnings});
    next.selectedText = 0;
    validateScene(next);
    model_->setScene(next);
    tokenIds_.assign(input.inputIds.begin(), input.inputIds.end());
    QString opened = tr("Opened %1: %2 tokens").arg(path).arg(input.inputIds.size());
    for (const std::string& w : warnings)
      opened += QStringLiteral("; ") + QString::fromStdString(w);
    statusBar()->showMessage(opened, warnings.empty() ? 4000 : 15000);
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Open processor output"), QString::fromStdString(e.what()));
    return false;
  }
}

void MainWindow::openTokensDialog() {
  if (!tokensModelReady()) return;  // said before a file is chosen, not after
  const QString path = askOpenFile(this, FileKind::Tokens, tr("Open processor output"),
                                   tr("Tokens JSON (*.json);;All files (*)"));
  if (!path.isEmpty()) openTokens(path);
}

namespace {

// The rule set the scene's design checks position ids under (its Rules box); InputError for a
// design that is no model family's.
RuleSet checkedRuleSet(const Scene& scene) {
  const auto specs = findDesign(scene.design).parameters();
  const ParameterSpec* rules = nullptr;
  for (const ParameterSpec& spec : specs)
    if (spec.key == "rules") rules = &spec;
  if (!rules)
    throw InputError(
        "check ids needs a model family's design (File \xe2\x86\x92 Open model); "
        "the scene's design " +
            scene.design + " has no rule set",
        "position-ids");
  const auto value = scene.designParams.find("rules");
  return static_cast<RuleSet>(static_cast<int>(value ? *value : rules->defaultValue));
}

}  // namespace

bool MainWindow::checkIds(const QString& path) {
  const Scene& scene = model_->scene();
  try {
    const RuleSet ruleSet = checkedRuleSet(scene);
    const std::vector<Id3> dump = readPositionIdsDump(path.toStdString());
    const IdsCheck result = checkPositionIds(scene, dump, {ruleSet}, tokenIds_, path.toStdString());
    QStringList lines =
        QString::fromStdString(result.report).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    idsCheck_ = lines.join(QStringLiteral("; "));
    checkedScene_ = scene;
    view_->setMarkedTokens(std::vector<long>(result.differing.begin(), result.differing.end()));
    showCheckMessage();
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Check position ids"), QString::fromStdString(e.what()));
    return false;
  }
}

QString MainWindow::checkMessage() const {
  return tr("Check ids: %1").arg(idsCheck_);
}

// A differing dump's line (first token with both ids, the count, the rule set each rule set
// matches) ran past a 1366-pixel status bar, cut mid-word: it is shortened with "..." to the
// bar's room, and the whole line is the bar's tooltip.
void MainWindow::showCheckMessage() {
  const QString full = checkMessage();
  const int room = statusBar()->width() - staleStatus_->sizeHint().width() - 32;
  checkShown_ = statusBar()->fontMetrics().elidedText(full, Qt::ElideRight, std::max(room, 120));
  statusBar()->showMessage(checkShown_);
  statusBar()->setToolTip(checkShown_ == full ? QString() : full);
}

void MainWindow::checkIdsDialog() {
  // Without a model family's design there is nothing to check against: said before a file is
  // chosen, not after.
  try {
    checkedRuleSet(model_->scene());
  } catch (const InputError& e) {
    QMessageBox::warning(this, tr("Check position ids"), QString::fromStdString(e.what()));
    return;
  }
  const QString path = askOpenFile(this, FileKind::Ids, tr("Check position ids"),
                                   tr("NumPy array (*.npy);;All files (*)"));
  if (!path.isEmpty()) checkIds(path);
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString path = askOpenFile(this, FileKind::Scene, tr("Open scene"),
                                   tr("ropescope scene (*.json);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

bool MainWindow::maybeSave() {
  if (!isModified()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Unsaved changes"), tr("The scene has unsaved changes. Save them?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent.removeAll(absolute);
  recent.prepend(absolute);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QStringLiteral("recentFiles"), recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
  // "1  s1.json  —  ~/runs/a": two files of one name in different folders looked the same.
  const QString home = QDir::homePath();
  int number = 0;
  for (const QString& path : recent) {
    const QFileInfo info(path);
    QString folder = QDir::toNativeSeparators(info.absolutePath());
    if (folder == home || folder.startsWith(home + QLatin1Char('/')))
      folder = QLatin1Char('~') + folder.mid(home.size());
    folder = fontMetrics().elidedText(folder, Qt::ElideMiddle, 360);
    const auto literal = [](QString t) {
      return t.replace(QLatin1Char('&'), QStringLiteral("&&"));
    };
    const QString text = QStringLiteral("&%1  %2  \u2014  %3")
                             .arg(++number)
                             .arg(literal(info.fileName()), literal(folder));
    recentMenu_
        ->addAction(text, this,
                    [this, path] {
                      if (maybeSave()) openFile(path);
                    })
        ->setToolTip(path);
  }
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::exportViewPng() {
  // Rendered offscreen at the figure size (figure_views.h), not a grab of the screen.
  figures_->exportView(
      figureViewsOn(compareMode() ? FigureSurface::Compare : FigureSurface::Space).front());
}

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About ropescope"),
      tr("<b>ropescope %1</b><p>Looks at, measures and teaches the geometry of rotary position "
         "embeddings in vision-language models: position ids of every design, PTD, bias "
         "spread, decay bounds and wavelengths.</p><p>Qt %2 \xc2\xb7 VTK 9.1</p>")
          .arg(QStringLiteral(ROPESCOPE_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::exportAnimation() {
  AnimationDialog dialog(model_, this);
  // What was written stays said after the dialog closes ("Wrote 40 frames to ...").
  if (dialog.exec() == QDialog::Accepted) statusBar()->showMessage(dialog.message(), 8000);
}

void MainWindow::startTour() {
  tourDock_->show();
  tourDock_->raise();
  tour_->start();
  // Keyboard focus in the panel: Escape closes it, Enter goes on.
  if (auto* next = tour_->findChild<QPushButton*>(QStringLiteral("tourNext"))) next->setFocus();
}

void MainWindow::keepBeforeTour() {
  BeforeTour b;
  b.tab = sideTabs_->currentIndex();
  b.phasorDistance = phasor_->distance();
  b.phasorDirection = static_cast<int>(phasor_->direction());
  b.selectedVisual = model_->selectedVisual();
  b.camera = view_->cameraState();
  b.scene = model_->scene();
  beforeTour_ = b;
}

void MainWindow::giveBackAfterTour() {
  if (!beforeTour_) return;
  const BeforeTour b = *beforeTour_;
  beforeTour_.reset();
  sideTabs_->setCurrentIndex(b.tab);
  phasor_->setDirection(static_cast<PhasorView::Direction>(b.phasorDirection));
  phasor_->setDistance(b.phasorDistance);
  model_->setSelectedVisual(b.selectedVisual);
  // A scene edited during the tour stays, framed afresh: the camera kept for the scene before
  // the tour left a grown one's tokens and axis names off-screen.
  if (model_->scene() == b.scene)
    view_->restoreCameraState(b.camera);
  else
    applyPreset(CameraPreset::Default);
  refreshTitle();
}

void MainWindow::showSideTab(const QString& name) {
  if (name == QLatin1String("phasor")) sideTabs_->setCurrentWidget(phasor_);
  if (name == QLatin1String("picture")) sideTabs_->setCurrentWidget(picture_);
  if (name == QLatin1String("charts")) sideTabs_->setCurrentWidget(charts_);
  if (name == QLatin1String("sound")) sideTabs_->setCurrentWidget(sound_);
  if (name == QLatin1String("layers")) sideTabs_->setCurrentWidget(layers_);
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
  fitToScreen();  // saved on a larger screen, or where no screen is now
  setDarkPalette(settings.value(QStringLiteral("dark"), true).toBool());
}

void MainWindow::startWith(const Scene& scene) {
  model_->setScene(scene);
  model_->clearHistory();
  savedScene_ = model_->scene();
  bool picture = false;
  for (const Segment& s : scene.layout.segments) picture = picture || shownOnPictureTab(s);
  showPictureTab(picture);
  refreshTitle();
}

void MainWindow::openPreset(const Scene& scene, const std::string& view) {
  if (!maybeSave()) return;
  currentFile_.clear();
  startWith(scene);
  // The tab or mode the preset's view lives on (its home surface, figure_views.h).
  const std::optional<FigureSurface> home = figureHome(view);
  setCompareMode(home == FigureSurface::Compare);
  showPictureTab(home == FigureSurface::Picture);
}

void MainWindow::showPictureTab(bool picture) {
  sideTabs_->setCurrentWidget(picture ? static_cast<QWidget*>(picture_) : charts_);
}

namespace {
QStringList droppedPaths(const QMimeData* mime) {
  QStringList paths;
  if (mime && mime->hasUrls())
    for (const QUrl& url : mime->urls())
      if (url.isLocalFile()) paths << url.toLocalFile();
  return paths;
}
}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (!droppedPaths(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const QStringList paths = droppedPaths(e->mimeData());
  if (paths.isEmpty()) return;
  e->acceptProposedAction();
  addDroppedFiles(paths);
}

// Sound files become aud: segments, everything else goes to the picture importer.
void MainWindow::addDroppedFiles(const QStringList& paths) {
  QStringList sounds, pictures;
  for (const QString& p : paths) (isSoundFile(p) ? sounds : pictures) << p;
  if (!sounds.isEmpty()) soundImporter_->addSounds(sounds);
  if (!pictures.isEmpty()) importer_->addDropped(pictures);
}

// A window made small squeezes the scene dock below its width; made wider again, the room goes
// back to the panel first (the splitter would give it all to the views), once the window has
// laid the new width out.
void MainWindow::resizeEvent(QResizeEvent* e) {
  QMainWindow::resizeEvent(e);
  // Grown again after being made small, the docks take back the room they open with: they
  // stayed squeezed (the scene panel scrolling sideways, the heat map a 110 px strip).
  if (e->oldSize().isValid() && e->size().width() > e->oldSize().width())
    QMetaObject::invokeMethod(this, &MainWindow::fitSceneDock, Qt::QueuedConnection);
  if (e->oldSize().isValid() && e->size().height() > e->oldSize().height())
    QMetaObject::invokeMethod(this, &MainWindow::fitAttentionDock, Qt::QueuedConnection);
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!maybeSave()) {
    e->ignore();
    return;
  }
  QSettings settings;
  settings.setValue(QStringLiteral("geometry"), saveGeometry());
  settings.setValue(QStringLiteral("windowState"), saveState());
  settings.setValue(QStringLiteral("dark"), dark_);
  autosave_->discard();  // a clean close: nothing to offer back
  e->accept();
}

bool MainWindow::offerAutosave() {
  const QList<Autosave::Orphan> found = Autosave::orphans();
  for (const Autosave::Orphan& orphan : found) {
    SceneLoadReport report;
    try {
      report = loadSceneFileReport(orphan.scenePath.toStdString());
    } catch (const std::exception&) {
      Autosave::remove(orphan);  // unreadable: nothing to offer
      continue;
    }
    const QString name = orphan.originalFile.isEmpty() ? tr("an untitled scene")
                                                       : QFileInfo(orphan.originalFile).fileName();
    const QString when = QLocale().toString(orphan.written, QLocale::ShortFormat);
    const QString answer = qEnvironmentVariable("ROPESCOPE_AUTOSAVE_ANSWER");
    bool restore = answer == QLatin1String("restore");
    if (answer != QLatin1String("restore") && answer != QLatin1String("discard")) {
      QMessageBox box(QMessageBox::Question, tr("Restore unsaved changes"),
                      tr("ropescope ended without saving the changes to %1 (autosaved %2). "
                         "Restore them?")
                          .arg(name, when),
                      QMessageBox::NoButton, this);
      QPushButton* yes = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
      box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
      box.setDefaultButton(yes);
      box.exec();
      restore = box.clickedButton() == yes;
    }
    Autosave::remove(orphan);
    if (!restore) continue;
    model_->setScene(report.scene);
    model_->clearHistory();
    currentFile_ = orphan.originalFile;
    savedScene_ = Scene{};  // the restored changes are in no file yet: unsaved
    bool picture = false;
    for (const Segment& s : report.scene.layout.segments) picture = picture || shownOnPictureTab(s);
    showPictureTab(picture);
    refreshTitle();
    statusBar()->showMessage(
        tr("Restored the unsaved changes to %1 (autosaved %2)").arg(name, when), 15000);
    autosave_->saveNow();  // and kept again at once
    return true;
  }
  return false;
}

}  // namespace ropescope::ui
