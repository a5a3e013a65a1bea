#include "teaching/animation.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPainter>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <sstream>

#include <vtkRenderer.h>

#include "figures/figure_views.h"
#include "figures/gif_writer.h"
#include "platform/cli_app.h"
#include "platform/file_output.h"
#include "ropescope/atomic_file.h"
#include "ropescope/errors.h"
#include "ropescope/phasor.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_metrics.h"
#include "ropescope_ui/animation_export.h"
#include "space/position_space_view.h"
#include "space/vtk_view.h"
#include "style/metric_text.h"
#include "teaching/phasor_view.h"

namespace ropescope::ui {

namespace {

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

bool parseNumber(const std::string& text, double& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

const ParameterSpec& circleSpec(const std::string& key) {
  static const std::vector<ParameterSpec> specs = findDesign("circle").parameters();
  return *findSpec(specs, key);
}

// The scene of one circle-parameter frame.
Scene circleFrameScene(const Scene& scene, const AnimationSpec& spec, double value) {
  Scene s = scene;
  setDesign(s, "circle");
  s.ageLayer = -1;
  s.designParams.set(spec.parameter, value);
  if (spec.parameter == "radius") s.designParams.set("radius_mode", 0);  // a fixed R to sweep
  return s;
}

QString circleTitle(const Scene& s, const SceneMetrics& m) {
  const auto& specs = findDesign("circle").parameters();
  // ASCII names: the 3-D view's text actors have no Greek glyphs.
  return QStringLiteral("alpha %1  R %2  beta %3  PTD %4")
      .arg(s.designParams.get("alpha", specs), 0, 'f', 3)
      .arg(s.designParams.get("radius", specs), 0, 'g', 4)
      .arg(s.designParams.get("dff", specs), 0, 'f', 3)
      .arg(metricTitleText(m.ptd.ptd, m.ptd.nText, m.ptd.nVisual));
}

InputError needsX(const AnimationSpec& spec, const std::string& why) {
  return InputError("animating " + spec.parameter + " draws the 3-D view and needs an X display (" +
                        why + "): run under xvfb-run -a",
                    "animate");
}

// Draws the frames of one animation; keeps the 3-D view (and its camera) across frames.
class FrameRenderer {
 public:
  FrameRenderer(const Scene& scene, const AnimationSpec& spec, QSize size)
      : scene_(scene), spec_(spec), size_(size) {
    if (spec.sweepsDistance()) {
      pairs_ = computeSceneMetrics(scene, 1).pairs;
      return;
    }
    const std::string why = gpu::qtPlatformProblem(QtSurface::X11OpenGl);
    if (!why.empty()) throw needsX(spec, why);
    // One camera for every frame: fit the union of all frames' ids.
    double b[6] = {1e300, -1e300, 1e300, -1e300, 1e300, -1e300};
    for (int i = 0; i < spec.frames; ++i) {
      const SceneMetrics m = computeSceneMetrics(circleFrameScene(scene, spec, spec.valueAt(i)), 1);
      for (const Id3& p : m.ids.ids)
        for (int a = 0; a < 3; ++a) {
          b[2 * a] = std::min(b[2 * a], p[a]);
          b[2 * a + 1] = std::max(b[2 * a + 1], p[a]);
        }
    }
    std::copy(b, b + 6, bounds_);
    view_ = std::make_unique<PositionSpaceView>();
    // Drawn as the 3-D figure of that size is: its text was the screen's, far smaller.
    FigureOptions figure;
    figure.size = size;
    prepareSpaceFigure(*view_, size, figure::effectiveScale(figure));
    view_->setFixedBounds(bounds_);  // every frame framed, and its axes ticked, alike
    view_->show();
  }

  QImage frame(int i) {
    const double value = spec_.valueAt(i);
    if (spec_.sweepsDistance()) {
      const Phasor ph = computePhasor(pairs_, directionDisplacement(spec_.direction, value));
      QImage image(size_, QImage::Format_RGB32);
      QPainter p(&image);
      // The light look of exported figures, whatever the screen theme.
      paintPhasor(p, image.rect(), ph, false, phasorCaption(ph));
      return image;
    }
    const Scene s = circleFrameScene(scene_, spec_, value);
    const SceneMetrics m = computeSceneMetrics(s, 1);
    view_->setLayout(s.layout);
    view_->showIds(m.ids, m.selectedToken, -1);
    view_->setTitle(circleTitle(s, m));
    if (i == 0 || !fitted_) {
      view_->applyPreset(CameraPreset::Default, bounds_);
      fitted_ = true;
    }
    QImage image = view_->grabFramebuffer();
    if (image.size() != size_)
      image = image.scaled(size_, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return image.convertToFormat(QImage::Format_RGB32);
  }

 private:
  Scene scene_;
  AnimationSpec spec_;
  QSize size_;
  PairTable pairs_;
  std::unique_ptr<PositionSpaceView> view_;
  double bounds_[6] = {0, 1, 0, 1, 0, 1};
  bool fitted_ = false;
};

// Names that say "one file": a folder of frames must not be called that (it would look like an
// image that no viewer opens).
bool hasFileExtension(const QString& out) {
  static const QStringList kFileSuffixes = {
      QStringLiteral("png"),  QStringLiteral("apng"), QStringLiteral("jpg"), QStringLiteral("jpeg"),
      QStringLiteral("bmp"),  QStringLiteral("webp"), QStringLiteral("tif"), QStringLiteral("tiff"),
      QStringLiteral("svg"),  QStringLiteral("pdf"),  QStringLiteral("ppm"), QStringLiteral("mp4"),
      QStringLiteral("webm"), QStringLiteral("mkv"),  QStringLiteral("mov"), QStringLiteral("avi"),
      QStringLiteral("csv"),  QStringLiteral("json"), QStringLiteral("npy"), QStringLiteral("txt")};
  return kFileSuffixes.contains(QFileInfo(out).suffix().toLower());
}

// PNG frames go into a folder: one that exists (or a link to one), or a new name without a
// file extension, created here. Anything else at the path (a file, a FIFO, a device, a link to
// one of those or to nothing) is left alone. create: make the new folder (else only check).
void prepareFramesFolder(const QString& out, bool create) {
  const std::string name = out.toStdString();
  std::error_code ec;
  if (std::filesystem::is_directory(name, ec)) return;
  const auto lstatus = std::filesystem::symlink_status(name, ec);
  if (!ec && lstatus.type() != std::filesystem::file_type::not_found)
    throw InputError("--out \"" + name +
                         "\" is not a folder: PNG frames go into a folder (an existing one or a "
                         "new name without an extension); for one animated file give a .gif name",
                     "out");
  if (hasFileExtension(out))
    throw InputError("--out \"" + name + "\" ends in ." + QFileInfo(out).suffix().toStdString() +
                         ", but PNG frames go into a folder: give a folder name without an "
                         "extension, or a .gif name for one animated file",
                     "out");
  if (create && !QDir().mkpath(out))
    throw InputError("could not create the folder \"" + name + "\" for the PNG frames", "out");
}

}  // namespace

double AnimationSpec::valueAt(int frame) const {
  if (frames <= 1) return from;
  const double v = from + (to - from) * static_cast<double>(frame) / (frames - 1);
  // A distance in whole positions, as the Phasors tab and render --distance take it (frames
  // at 2.06452 and 130.723 showed displacements no other part of the program would draw).
  return sweepsDistance() ? std::round(v) : v;
}

std::string AnimationSpec::label() const {
  if (sweepsDistance()) return "distance along " + direction;
  if (parameter == "alpha") return "α (alpha)";
  if (parameter == "radius") return "R (radius)";
  return "β (dff)";
}

std::string animationSpecHelp() {
  // The Circle-RoPE parameters' ranges are their ParameterSpecs' (circle.cpp).
  return "PARAM:FROM:TO with PARAM distance (along h), distance_t, distance_h, distance_w or "
         "distance_thw (0.." +
         std::to_string(figure::kPhasorMaxDistance) + "), alpha " +
         circleSpec("alpha").rangeText() + ", radius or R " + circleSpec("radius").rangeText() +
         ", dff or beta " + circleSpec("dff").rangeText();
}

std::string animationSpecForms() {
  return animationSpecHelp();
}

AnimationSpec parseAnimationSpec(const std::string& text) {
  const auto fail = [&](const std::string& why) {
    throw InputError("animation spec '" + text + "': " + why + "; use " + animationSpecHelp(),
                     "animate");
  };
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts.size() != 3) fail("expected three parts separated by ':'");
  AnimationSpec spec;
  const std::string& name = parts[0];
  if (name == "distance" || name.rfind("distance_", 0) == 0) {
    spec.parameter = "distance";
    spec.direction = name == "distance" ? "h" : name.substr(9);
    if (spec.direction != "t" && spec.direction != "h" && spec.direction != "w" &&
        spec.direction != "thw")
      fail("unknown direction '" + spec.direction + "'");
  } else if (name == "alpha") {
    spec.parameter = "alpha";
  } else if (name == "radius" || name == "R") {
    spec.parameter = "radius";
  } else if (name == "dff" || name == "beta") {
    spec.parameter = "dff";
  } else {
    fail("unknown parameter '" + name + "'");
  }
  if (!parseNumber(parts[1], spec.from)) fail("FROM '" + parts[1] + "' is not a number");
  if (!parseNumber(parts[2], spec.to)) fail("TO '" + parts[2] + "' is not a number");
  for (double v : {spec.from, spec.to}) {
    if (spec.sweepsDistance()) {
      if (v < 0 || v > figure::kPhasorMaxDistance || v != std::floor(v))
        throw InputError("animation spec '" + text + "': distance must be a whole number in 0.." +
                             std::to_string(figure::kPhasorMaxDistance) + " (got " + number(v) +
                             ")",
                         "animate");
    } else {
      const std::string problem = circleSpec(spec.parameter).check(v);
      if (!problem.empty())
        throw InputError("animation spec '" + text + "': " + problem, "animate");
    }
  }
  if (spec.from == spec.to) fail("FROM and TO are equal: nothing would move");
  return spec;
}

AnimationRange animationRange(const std::string& parameter) {
  if (parameter == "distance") return {0, double(figure::kPhasorMaxDistance)};
  const ParameterSpec& spec = circleSpec(parameter);
  return {spec.min, spec.max, spec.minExclusive};
}

void checkAnimationFrames(int frames) {
  if (frames < kMinAnimationFrames || frames > kMaxAnimationFrames)
    throw InputError("frames must be a whole number in " + std::to_string(kMinAnimationFrames) +
                         ".." + std::to_string(kMaxAnimationFrames) + " (got " +
                         std::to_string(frames) + ")",
                     "frames");
}

void checkAnimationSize(QSize size) {
  for (int side : {size.width(), size.height()})
    if (side < kMinAnimationSide || side > kMaxAnimationSide)
      throw InputError("animation size must be " + std::to_string(kMinAnimationSide) + ".." +
                           std::to_string(kMaxAnimationSide) + " pixels per side (got " +
                           std::to_string(size.width()) + "x" + std::to_string(size.height()) + ")",
                       "size");
}

QImage renderAnimationFrame(const Scene& scene, const AnimationSpec& spec, int frame, QSize size) {
  checkAnimationSize(size);
  FrameRenderer renderer(scene, spec, size);
  return renderer.frame(std::clamp(frame, 0, std::max(0, spec.frames - 1)));
}

AnimationResult renderAnimation(const Scene& scene, const AnimationSpec& spec, QSize size,
                                const QString& out, const AnimationProgress& progress,
                                int delayMs) {
  AnimationResult result;
  try {
    checkAnimationFrames(spec.frames);
    checkAnimationSize(size);
    if (out.isEmpty())
      throw InputError("no output: give a .gif file or a folder for PNG frames", "out");
    const bool gif = out.endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive);
    // Refused before any frame is drawn.
    if (gif)
      checkOutputPath(out.toStdString());
    else
      prepareFramesFolder(out, false);
    FrameRenderer renderer(scene, spec, size);
    // The GIF goes to a temporary file and appears whole when the last frame is in; a
    // cancelled or failed animation leaves what was at the path as it was.
    GifWriter writer;
    if (gif) {
      if (!writer.open(out, size, std::max(1, delayMs / 10)))
        throw InputError(writer.errorString().toStdString(), "out");
    } else {
      prepareFramesFolder(out, true);
    }
    for (int i = 0; i < spec.frames; ++i) {
      const QImage image = renderer.frame(i);
      if (gif) {
        if (!writer.addFrame(image)) throw InputError(writer.errorString().toStdString(), "out");
      } else {
        const QString path =
            QDir(out).filePath(QStringLiteral("frame_%1.png").arg(i + 1, 4, 10, QLatin1Char('0')));
        writePng(path.toStdString(), image);  // each frame whole or not at all
      }
      ++result.framesWritten;
      if (progress && !progress(i + 1, spec.frames)) {
        result.cancelled = true;
        break;
      }
    }
    // A cancelled GIF is not closed: the writer abandons it, and the path keeps what it held.
    if (gif && !result.cancelled && !writer.close())
      throw InputError(writer.errorString().toStdString(), "out");
    result.ok = !result.cancelled;
  } catch (const std::exception& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

int renderAnimationCommand(const Scene& scene, const std::string& specText, int frames, int width,
                           int height, const std::string& out, std::ostream& log) {
  AnimationSpec spec = parseAnimationSpec(specText);
  checkAnimationFrames(frames);
  spec.frames = frames;
  checkAnimationSize(QSize(width, height));
  if (out.empty())
    throw InputError("--out is required: a .gif file or a folder for PNG frames", "out");
  validateScene(scene);
  const QString path = QString::fromStdString(out);
  if (path.endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive))
    checkOutputPath(out);  // before a display is asked for
  else
    prepareFramesFolder(path, false);
  // Distance frames are painted on images: no window system needed.
  const std::string why =
      startCommandLineApp(spec.sweepsDistance() ? QtSurface::Images : QtSurface::X11OpenGl);
  if (!why.empty()) throw needsX(spec, why);
  QElapsedTimer timer;
  timer.start();
  const AnimationResult r = renderAnimation(scene, spec, QSize(width, height), path);
  if (!r.ok) throw InputError(r.error.toStdString(), "out");
  const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
  if (path.endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive)) {
    log << "wrote " << r.framesWritten << " frames of " << width << "x" << height << " ("
        << spec.label() << " " << spec.from << " to " << spec.to << ") to " << out << ", "
        << (QFileInfo(path).size() + 1023) / 1024 << " KiB, in " << seconds << " s\n";
  } else {
    log << "wrote " << r.framesWritten << " PNG frames of " << width << "x" << height << " ("
        << spec.label() << " " << spec.from << " to " << spec.to << ") to " << out
        << "/frame_0001.png..., in " << seconds << " s\n";
  }
  return 0;
}

}  // namespace ropescope::ui
