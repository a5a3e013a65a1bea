// The main window: scene panel, the 3-D position view (or compare mode's grid), the charts,
// menus, shortcuts, status bar and session files.
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <optional>

#include <vtkSmartPointer.h>

#include "ropescope/model_config.h"
#include "ropescope/scene.h"
#include "space/position_space_view.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolBar;
class vtkCamera;

namespace ropescope::ui {

class AttentionView;
class Autosave;
class BackgroundProgress;
class FormulaPanel;
class PhasorView;
class ModalityView;
class BudgetView;
class PrinciplesView;
class LayersView;
class TourPanel;
class ChartsPanel;
class CompareView;
class ElidedLabel;
class FigureMenu;
class SceneModel;
class PictureImporter;
class PictureView;
class ScenePanel;
class SoundImporter;
class SoundView;

class MemoryRelease;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  SceneModel* model() const { return model_; }
  BackgroundProgress* backgroundProgress() const { return progress_; }
  ScenePanel* panel() const { return panel_; }
  PositionSpaceView* spaceView() const { return view_; }
  CompareView* compareView() const { return compare_; }
  ChartsPanel* charts() const { return charts_; }
  PictureView* pictureView() const { return picture_; }
  PictureImporter* importer() const { return importer_; }
  AttentionView* attentionView() const { return attention_; }
  FigureMenu* figures() const { return figures_; }
  QDockWidget* attentionDock() const { return attentionDock_; }
  PhasorView* phasorView() const { return phasor_; }
  SoundView* soundView() const { return sound_; }
  LayersView* layersView() const { return layers_; }
  SoundImporter* soundImporter() const { return soundImporter_; }
  // Dropped files: sound files to the sound importer, the rest to the picture importer.
  void addDroppedFiles(const QStringList& paths);
  FormulaPanel* positionFormulas() const { return positionFormulas_; }
  TourPanel* tourPanel() const { return tour_; }
  QDockWidget* tourDock() const { return tourDock_; }
  MemoryRelease* memoryRelease() const { return memoryRelease_; }
  // Help → Tour (F1): shows the tour panel at its first step.
  void startTour();
  // Shows a side tab by name: "charts", "picture", "phasor", "sound" or "layers".
  void showSideTab(const QString& name);
  // Shows the picture tab (true) or the charts (false) beside the 3-D view.
  void showPictureTab(bool picture);
  QString statusText() const;
  // The right-hand status: invalid input, or a large edit still computing; empty otherwise.
  QString staleStatusText() const;

  void setCompareMode(bool on);
  bool compareMode() const;
  void setDarkPalette(bool dark);
  void applyPreset(CameraPreset preset);

  // Session files. Both report failures in a message box and return false.
  // A scene whose picture files are missing or bad opens without them; the problems are listed
  // beside the segment list and openFile still returns true.
  bool openFile(const QString& path);
  // Starts on `scene` as if it had been saved (no unsaved-changes prompt for it).
  void startWith(const Scene& scene);
  // A preset of the Presets menu, opened as a new untitled scene in its view (the Save /
  // Discard / Cancel question first where the scene has unsaved changes): Save then asks for a
  // file name rather than writing the preset over the file that was open.
  void openPreset(const Scene& scene, const std::string& view);
  bool saveTo(const QString& path);
  // File → Load ids…: the scene's design becomes ids-file with the ids of a .npy ([N,3] or
  // [3,N]) over the current layout. A bad file or a token count that differs from the layout's
  // leaves the scene as it was; the message box says why and it returns false.
  bool loadIds(const QString& path);
  // File → Open model: a checkpoint folder (config.json, ...) or a shipped config by name. The
  // scene takes the model's design, frequency spec and image grid (applyModel); a bad folder or
  // name leaves the scene as it was, the message box says why and it returns false.
  bool openModel(const QString& dirOrName);
  // File → Open processor output…: a tokens .json becomes the layout under the loaded model
  // (layoutFromTokens). Without a model (none loaded, and the scene's model name is not a
  // shipped one) it says to open one first and returns false; a bad file leaves the scene.
  bool openTokens(const QString& path);
  // File → Check position ids…: a position_ids .npy dumped from the model, compared with the
  // scene's ids under the scene's rule set. The result line goes to the status bar (and
  // idsCheckText()); the differing tokens are marked in the 3-D view. Returns true when the
  // check ran (identical or not); bad input: a message box, false.
  bool checkIds(const QString& path);
  QString idsCheckText() const { return idsCheck_; }
  // The status bar's line for the last check of position ids, whole (the bar shows it shortened
  // to its width, the whole line as its tooltip).
  QString checkMessage() const;
  bool isModified() const;
  QString currentFile() const { return currentFile_; }

  void restoreSettings();
  // Shrinks and moves the window so that its frame lies inside its screen's available geometry
  // (at start, after restoring a geometry saved on another screen).
  void fitToScreen();

  // Autosave (autosave.h): the scene's unsaved changes, kept every minute.
  Autosave* autosave() const { return autosave_; }
  // Offers back the unsaved changes a crashed or killed ropescope left (Restore / Discard;
  // ROPESCOPE_AUTOSAVE_ANSWER=restore|discard answers without asking, for tests). True when a
  // scene was restored: it is then unsaved, under the file name it had.
  bool offerAutosave();

 protected:
  void closeEvent(QCloseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  // The constructor's parts, in its order.
  void buildSceneDock();
  void buildEditMenu();
  void fitSceneDock();
  void fitAttentionDock();
  void refitSceneDockWhenHidden(QDockWidget* dock);
  void showCheckMessage();
  void buildCentralViews();
  void buildImporters();
  void buildStatusBar();
  void buildAttentionDock();
  void buildTour();
  void buildMenus();
  void buildFileMenu();
  void buildFigureMenus(QMenu* exportMenu);
  void buildViewMenu();
  void addCameraActions(QMenu* viewMenu, QToolBar* toolbar);
  void buildHelpMenus();
  void refreshViews();
  void refreshTitle();
  bool save();
  bool saveAs();
  void openDialog();
  void loadIdsDialog();
  void openModelDialog();
  void layersOfShippedModel(const std::string& name);
  void openTokensDialog();
  void checkIdsDialog();
  void rebuildModelMenu();
  // Whether a model is open to read a processor output with; if not, says so and returns false.
  bool tokensModelReady();
  bool maybeSave();
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void exportViewPng();
  void about();
  void exportAnimation();

  SceneModel* model_;
  ScenePanel* panel_ = nullptr;
  PositionSpaceView* view_ = nullptr;
  CompareView* compare_ = nullptr;
  ChartsPanel* charts_ = nullptr;
  PictureView* picture_ = nullptr;
  PictureImporter* importer_ = nullptr;
  AttentionView* attention_ = nullptr;
  QDockWidget* attentionDock_ = nullptr;
  FigureMenu* figures_ = nullptr;
  PhasorView* phasor_ = nullptr;
  ModalityView* modalities_ = nullptr;
  BudgetView* budget_ = nullptr;
  PrinciplesView* principles_ = nullptr;
  LayersView* layers_ = nullptr;
  QAction* undoAction_ = nullptr;
  QAction* redoAction_ = nullptr;
  SoundView* sound_ = nullptr;
  SoundImporter* soundImporter_ = nullptr;
  FormulaPanel* positionFormulas_ = nullptr;
  TourPanel* tour_ = nullptr;
  QDockWidget* tourDock_ = nullptr;
  QDockWidget* sceneDock_ = nullptr;
  QTabWidget* sideTabs_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QSplitter* splitter_ = nullptr;
  QComboBox* colorBy_ = nullptr;
  QAction* compareAction_ = nullptr;
  QAction* darkAction_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QMenu* modelMenu_ = nullptr;
  // The model opened last (its special token ids and grids read the tokens files) and the
  // input_ids of the last tokens file (they name tokens in the check-ids line).
  std::optional<ModelConfig> modelConfig_;
  std::vector<long long> tokenIds_;
  QString idsCheck_;
  QString checkShown_;  // idsCheck_ as the status bar shows it
  Scene checkedScene_;  // the scene the marks in the 3-D view belong to
  ElidedLabel* status_ = nullptr;
  QLabel* staleStatus_ = nullptr;
  BackgroundProgress* progress_ = nullptr;
  QString currentFile_;
  Scene savedScene_;
  Autosave* autosave_ = nullptr;
  MemoryRelease* memoryRelease_ = nullptr;
  bool dark_ = false;
  // What the tour changes besides the scene, kept from its start and given back at its end.
  struct BeforeTour {
    int tab = 0;
    int phasorDistance = 0;
    int phasorDirection = 0;
    long selectedVisual = -1;
    PositionSpaceView::CameraState camera;
    Scene scene;  // the camera is given back with this scene only
  };
  std::optional<BeforeTour> beforeTour_;
  void keepBeforeTour();
  void giveBackAfterTour();
};

}  // namespace ropescope::ui
