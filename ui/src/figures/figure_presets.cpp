#include "figures/figure_presets.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "model/sample_scene.h"
#include "ropescope/errors.h"
#include "ropescope/named.h"

static void initPresetResources() {
  Q_INIT_RESOURCE(presets);
}

namespace ropescope::ui {

namespace {

// Menu order: the Circle-RoPE figures, RoFormer, the Revisiting paper, Qwen2.5-Omni.
constexpr const char* kOrder[] = {
    "circle-four-schemes", "circle-picture",        "age-schedule",
    "roformer-decay",      "revisiting-mrope",      "revisiting-mhrope",
    "revisiting-mrope-i",  "revisiting-principles", "omni-tmrope"};

FigurePreset readPreset(const QString& resource) {
  QFile file(resource);
  if (!file.open(QIODevice::ReadOnly))
    throw InputError("preset " + resource.toStdString() + " is missing from the build");
  QJsonParseError error{};
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
  const QJsonObject o = doc.object();
  if (error.error != QJsonParseError::NoError ||
      o.value(QLatin1String("format")).toString() != QLatin1String("ropescope-preset"))
    throw InputError("preset " + resource.toStdString() + " is not a ropescope-preset file");
  FigurePreset p;
  p.name = o.value(QLatin1String("name")).toString().toStdString();
  p.title = o.value(QLatin1String("title")).toString().toStdString();
  p.view = o.value(QLatin1String("view")).toString().toStdString();
  p.figure = o.value(QLatin1String("figure")).toString().toStdString();
  p.differences = o.value(QLatin1String("differences")).toString().toStdString();
  p.maxDistance = o.value(QLatin1String("max_distance")).toInt(kDefaultDecayDistance);
  // Picture files of the layout are read relative to the cached sample folder.
  const QString picture = samplePicturePath();
  const std::string baseDir =
      picture.isEmpty() ? std::string() : QFileInfo(picture).absolutePath().toStdString();
  const QByteArray sceneText =
      QJsonDocument(o.value(QLatin1String("scene")).toObject()).toJson(QJsonDocument::Compact);
  try {
    p.scene = sceneFromJson(sceneText.toStdString(), baseDir);
  } catch (const InputError& e) {
    throw InputError("preset " + p.name + ": " + e.what());
  }
  return p;
}

}  // namespace

const std::vector<FigurePreset>& figurePresets() {
  static const std::vector<FigurePreset> all = [] {
    initPresetResources();
    std::vector<FigurePreset> v;
    for (const char* name : kOrder)
      v.push_back(readPreset(QStringLiteral(":/presets/%1.json").arg(QLatin1String(name))));
    return v;
  }();
  return all;
}

const FigurePreset& findFigurePreset(const std::string& name) {
  return findByName(
      figurePresets(), name, [](const FigurePreset& p) { return p.name; }, "preset", "preset");
}

}  // namespace ropescope::ui
