// The GUI side of figure export: File -> Export figure (one entry per view, with the figure
// settings), the Presets menu and the views' context menus. Every export goes through
// exportFigure (figure_views.h) on the model's current valid scene: the same figure as
// `ropescope render` with the same options.
#pragma once

#include <QObject>
#include <QPoint>

#include <functional>
#include <string>
#include <vector>

#include "figures/figure_style.h"
#include "figures/figure_views.h"
#include "ropescope/scene.h"

class QMenu;
class QWidget;

namespace ropescope::ui {

class PhasorView;
class PictureView;
class SoundView;
class SceneModel;

class FigureMenu : public QObject {
  Q_OBJECT

 public:
  FigureMenu(SceneModel* model, QWidget* window);

  // File -> Export figure: an entry per view, then titles, legends and the figure size.
  void fillExportMenu(QMenu* menu);
  // One entry per preset; `apply` receives the preset's scene and view.
  void fillPresetsMenu(QMenu* menu, std::function<void(const Scene&, const std::string&)> apply);
  // A right-click menu on `widget` offering the export of the views offered on `surface`
  // (figureViewsOn).
  void addContextMenu(QWidget* widget, FigureSurface surface);
  // The same menu at `pos` (widget coordinates), for views that raise it themselves (3-D).
  void popup(QWidget* widget, QPoint pos, FigureSurface surface);

  // Asks for a file and writes the view; failures go to a message box. Returns the path written
  // (empty when cancelled or failed).
  QString exportView(const std::string& view);
  // Writes without asking (tests and scripted use); throws InputError.
  void exportTo(const std::string& view, const QString& path) const;

  FigureOptions& options() { return options_; }
  // The tabs whose state their figures show (none: the options' own): the Phasors tab's
  // displacement, the Picture tab's picture and picked token (and so its temporal patch), the
  // Sound tab's sound and map.
  void setPhasorView(const PhasorView* view) { phasorView_ = view; }
  void setPictureView(const PictureView* view) { pictureView_ = view; }
  void setSoundView(const SoundView* view) { soundView_ = view; }

 private:
  SceneModel* model_;
  QWidget* window_;
  FigureOptions options_;
  const PhasorView* phasorView_ = nullptr;
  const PictureView* pictureView_ = nullptr;
  const SoundView* soundView_ = nullptr;
};

}  // namespace ropescope::ui
