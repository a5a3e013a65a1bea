// The named views a figure can be made of, and the one code path that renders them from a Scene:
// File -> Export, the views' context menus and `ropescope render` all call exportFigure, so the
// GUI and the CLI give the same figure.
#pragma once

#include <QImage>
#include <QString>

#include <memory>
#include <string>
#include <vector>

#include "figures/figure_style.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"

class QChart;

class QGraphicsScene;

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

struct FigureView {
  std::string name;
  std::string description;
  FigureKind kind;
  std::vector<std::string> formats;  // file extensions, image formats first, then csv, json
  FigureNeed needs = FigureNeed::Nothing;
};

const std::vector<FigureView>& figureViews();
// Throws InputError naming the accepted views.
const FigureView& findFigureView(const std::string& name);

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
