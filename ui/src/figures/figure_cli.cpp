#include "ropescope_ui/figure_cli.h"

#include <QCoreApplication>

#include "figures/figure_presets.h"
#include "figures/figure_views.h"
#include "platform/cli_app.h"
#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"

namespace ropescope::ui {

namespace {

// Formats written from core's numbers, no drawing: the tables and the id cloud (id_cloud.h).
bool dataFormat(const std::string& f) {
  return f == "csv" || f == "json" || f == "ply" || f == "gltf";
}

FigureOptions optionsOf(const RenderJob& job) {
  FigureOptions o;
  o.size = QSize(job.width, job.height);
  o.scale = job.scale;
  o.title = job.title;
  o.legend = job.legend;
  o.colorByModality = job.colorByModality;
  o.maxDistance = job.maxDistance;
  o.phasorDistance = job.phasorDistance;
  o.phasorAlong = job.phasorAlong;
  o.temporalPatch = job.temporalPatch;
  o.segment = job.segment;
  return o;
}

// The GUI's names, so presets' pictures are cached where the app caches its sample (the
// setters work before the application object exists).
void useAppNames() {
  if (QCoreApplication::organizationName().isEmpty())
    QCoreApplication::setOrganizationName(QStringLiteral("ropescope"));
  if (QCoreApplication::applicationName().isEmpty() ||
      QCoreApplication::applicationName() == QLatin1String("ropescope"))
    QCoreApplication::setApplicationName(QStringLiteral("ropescope"));
}

}  // namespace

int phasorMaxDistance() {
  return figure::kPhasorMaxDistance;
}

std::vector<FigureViewInfo> figureViewList() {
  std::vector<FigureViewInfo> out;
  for (const FigureView& v : figureViews())
    out.push_back(
        {v.name, v.description, v.formats, v.kind == FigureKind::Space, v.takesDisplacement});
  return out;
}

std::vector<FigurePresetInfo> figurePresetList() {
  useAppNames();
  std::vector<FigurePresetInfo> out;
  for (const FigurePreset& p : figurePresets())
    out.push_back({p.name, p.title, p.view, p.figure, p.differences, p.maxDistance, p.scene});
  return out;
}

FigurePresetInfo figurePresetInfo(const std::string& name) {
  useAppNames();
  const FigurePreset& p = findFigurePreset(name);
  return {p.name, p.title, p.view, p.figure, p.differences, p.maxDistance, p.scene};
}

namespace {

// The views that need what `takes` accepts, "a, b, c": which views an option belongs to.
std::string viewsNeeding(bool (*takes)(FigureNeed)) {
  std::string names;
  for (const FigureView& v : figureViews())
    if (takes(v.needs)) names += (names.empty() ? "" : ", ") + v.name;
  return names;
}

}  // namespace

void checkRenderJob(const RenderJob& job) {
  const FigureView& view = findFigureView(job.view);
  const auto picture = [](FigureNeed n) { return n == FigureNeed::Picture; };
  const auto pictureOrSound = [](FigureNeed n) {
    return n == FigureNeed::Picture || n == FigureNeed::Audio;
  };
  if (job.pairGiven && !picture(view.needs))
    throw InputError("--temporal-patch is an option of the picture views (" +
                         viewsNeeding(picture) + ") (got --view " + view.name + ")",
                     "temporal-patch");
  if (job.segment >= 0 && !pictureOrSound(view.needs))
    throw InputError("--segment is an option of the picture and sound views (" +
                         viewsNeeding(pictureOrSound) + ") (got --view " + view.name + ")",
                     "segment");
  figureFormat(view, job.out);
  figure::validate(optionsOf(job));
}

void renderFigure(const RenderJob& job) {
  checkRenderJob(job);
  checkOutputPath(job.out);  // refused before a display is asked for or anything is drawn
  const FigureView& view = findFigureView(job.view);
  const bool threeD = view.kind == FigureKind::Space && !dataFormat(figureFormat(view, job.out));
  // Charts need no display; 3-D views go through X (Debian's VTK is a GLX build).
  const std::string why = startCommandLineApp(threeD ? QtSurface::X11OpenGl : QtSurface::Images);
  if (!why.empty())
    throw InputError("view " + view.name + " draws 3-D views with VTK, which needs an X display (" +
                     why + "): run it under xvfb-run -a ropescope render ...");
  exportFigure(job.scene, job.view, job.out, optionsOf(job));
}

}  // namespace ropescope::ui
