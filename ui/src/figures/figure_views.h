// The named views a figure can be made of, and the one code path that renders them from a Scene:
// File -> Export, the views' context menus and `ropescope render` all call exportFigure, so the
// GUI and the CLI give the same figure.
#pragma once

#include <QImage>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "figures/figure_style.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"

class QChart;
class QGraphicsScene;
class QPainter;

namespace ropescope::ui {
class PositionSpaceView;
}

namespace ropescope::ui {

enum class FigureKind {
  Chart,    // Qt Charts: SVG, PDF, PNG
  Space,    // 3-D VTK views: PNG, rendered offscreen at the requested size (needs X)
  Heatmap,  // picture + grid + heat map with its colour bar: PNG, SVG, PDF
  Painted,  // drawn with QPainter from core results (phasors): PNG, SVG, PDF
};

// What a view needs in the scene's layout: without it the view has nothing to draw.
enum class FigureNeed { Nothing, Picture, Audio, TextAfterVisual };

// The surfaces of the window whose right-click menu offers a view's export.
enum class FigureSurface {
  Space,      // the 3-D view
  Compare,    // the compare grid's four 3-D views
  Charts,     // the charts panel
  Picture,    // the Picture tab
  Attention,  // the attention preview
  Phasor,     // the Phasors tab's canvas
  Sound,      // the Sound tab's waveform and spectrogram
};

// A figure prepared from a scene, painted on any device at the figure's logical size.
using FigurePainter = std::function<void(QPainter&, QSizeF)>;

// One view: what it is called and shows, the table behind it, how it is drawn and where the
// window offers it. Each view is one entry of figureViews() (figure_registry.cpp), written in
// its own file under figures/views/; nothing else names it.
struct FigureView {
  std::string name;         // the --view word, the export file's stem
  std::string description;  // what `render --list-views` prints, the menu entries' tooltip
  FigureKind kind;
  std::vector<std::string> formats;  // file extensions, image formats first, then csv, json
  FigureNeed needs = FigureNeed::Nothing;
  // The data behind the view as CSV or JSON (figureData; figureTableText titles a Table).
  std::string (*data)(const Scene&, const FigureView&, TableFormat, const FigureOptions&) = nullptr;
  // How it is drawn, one of three by kind: a Chart view builds its chart, a Painted or Heatmap
  // view prepares its painter, a Space view renders its image of exactly o.size pixels.
  std::unique_ptr<QChart> (*chart)(const Scene&, const FigureView&, const FigureOptions&) = nullptr;
  FigurePainter (*painter)(const Scene&, const FigureOptions&) = nullptr;
  QImage (*image)(const Scene&, const FigureOptions&) = nullptr;
  // The surfaces whose right-click menu offers it. The first is the view's home: a preset of
  // the view shows it, and Ctrl+E on the 3-D view or the compare grid writes its home view.
  std::vector<FigureSurface> offeredOn;
  // The context menu's entry when "Export NAME figure..." does not say what it writes.
  const char* menuText = nullptr;
  // Draws the phasor displacement: the Phasors tab's, render's --distance and --along.
  bool takesDisplacement = false;
};

const std::vector<FigureView>& figureViews();
// Throws InputError naming the accepted views.
const FigureView& findFigureView(const std::string& name);
// The views a surface's right-click menu offers: those at home there first, then the others
// offered there, each in the registry's order.
std::vector<std::string> figureViewsOn(FigureSurface surface);
// The home surface of a view (its first of offeredOn); none for an unknown view or one that no
// surface offers.
std::optional<FigureSurface> figureHome(const std::string& name);

// Throws InputError (field "view") saying what `scene` lacks for `view` (a picture, audio):
// every export checks it before a file is asked for or written.
void checkFigureNeeds(const Scene& scene, const FigureView& view);

// "png", "svg", ... from a path's extension; throws InputError naming the view's formats.
std::string figureFormat(const FigureView& view, const std::string& path);

// The data behind a view as CSV or JSON (core writers, shortest round-trip numbers).
std::string figureData(const Scene& scene, const FigureView& view, TableFormat format,
                       const FigureOptions& o);

// The chart of a Chart view (owned by the caller).
std::unique_ptr<QChart> figureChart(const Scene& scene, const FigureView& view,
                                    const FigureOptions& o);

// Puts a figure chart into `scene` laid out at `logical` size, as every export draws it (category
// names shrunk to fit their rows, see figure::kMinLabelPixels). The chart stays in the scene.
void layOutFigureChart(QChart* chart, QGraphicsScene* scene, const QSizeF& logical);

// Sets up a hidden 3-D view to draw as a figure of `px` pixels at figure scale `scale`
// (figure::effectiveScale): its text and lines scaled as the figures', their font, a white
// background, the light look. The 3-D exports and the α/R/β animations share it.
void prepareSpaceFigure(PositionSpaceView& view, QSize px, double scale);

// The figure as an image of exactly o.size pixels (any kind).
QImage figureImage(const Scene& scene, const FigureView& view, const FigureOptions& o);

// Writes the figure (format from the extension) to `path`. Throws InputError on bad input or
// when the file cannot be written.
void exportFigure(const Scene& scene, const std::string& view, const std::string& path,
                  const FigureOptions& o);

}  // namespace ropescope::ui
