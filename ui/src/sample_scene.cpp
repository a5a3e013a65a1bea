#include "sample_scene.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QStandardPaths>

#include "file_output.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_config.h"
#include "ropescope/sample_pictures.h"

// The resource lives in the static ropescope_ui library: referencing its initialiser keeps it
// linked in.
static void initSampleResources() {
  Q_INIT_RESOURCE(samples);
}
static void initModelResources() {
  Q_INIT_RESOURCE(models);
}

namespace ropescope::ui {

namespace {

constexpr const char* kCastle = "castle.png";

// The core reads pictures by path: a sample's resource is copied to a cache file, rewritten
// when it differs (a stale or damaged copy must not stand for the sample). Empty on failure.
QString cachedSample(const QString& name) {
  static QMutex mutex;  // scene loads may run on worker threads
  const QMutexLocker lock(&mutex);
  initSampleResources();
  QFile resource(QStringLiteral(":/samples/") + name);
  if (name.contains(QLatin1Char('/')) || !resource.open(QIODevice::ReadOnly)) return {};
  QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
  if (dir.isEmpty()) dir = QDir::tempPath();
  dir += QStringLiteral("/ropescope/samples");
  if (!QDir().mkpath(dir)) return {};
  const QString path = dir + QLatin1Char('/') + name;
  const QByteArray bytes = resource.readAll();
  QFile existing(path);
  if (existing.open(QIODevice::ReadOnly) && existing.readAll() == bytes) return path;
  existing.close();
  try {
    writeBytes(path.toStdString(), bytes, "sample");  // the one output path: whole or not at all
  } catch (const std::exception&) {
    return {};
  }
  return path;
}

// The shipped model configs (resources/models, compiled in as :/models/NAME/FILE) copied to a
// cache folder once per process, each file rewritten when it differs, as the samples are: the
// core reads configs by path. Empty on failure.
std::string cachedModelsRoot() {
  static QMutex mutex;
  const QMutexLocker lock(&mutex);
  static std::string root;
  static bool done = false;
  if (done) return root;
  done = true;
  initModelResources();
  QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
  if (dir.isEmpty()) dir = QDir::tempPath();
  dir += QStringLiteral("/ropescope/models");
  QDirIterator it(QStringLiteral(":/models"), QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString resourcePath = it.next();
    const QString rel = resourcePath.mid(QStringLiteral(":/models/").size());
    const QString path = dir + QLatin1Char('/') + rel;
    if (!QDir().mkpath(QFileInfo(path).path())) return {};
    QFile resource(resourcePath);
    if (!resource.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = resource.readAll();
    QFile existing(path);
    if (existing.open(QIODevice::ReadOnly) && existing.readAll() == bytes) continue;
    existing.close();
    try {
      writeBytes(path.toStdString(), bytes, "model config");
    } catch (const std::exception&) {
      return {};
    }
  }
  root = dir.toStdString();
  return root;
}

// "img:castle.png" names the shipped sample and "--model qwen2.5-vl-7b" the shipped config in
// every program that links this file: the app and the command line (sample_pictures.h,
// model_config.h). Installed before main().
const bool kLocatorInstalled = [] {
  setSampleLocator([](const std::string& name) {
    return cachedSample(QString::fromStdString(name)).toStdString();
  });
  ModelLocator models;
  models.folderOf = [](const std::string& name) {
    const std::string root = cachedModelsRoot();
    return root.empty() ? std::string() : modelFolderLocator(root).folderOf(name);
  };
  models.names = [] {
    const std::string root = cachedModelsRoot();
    return root.empty() ? std::vector<std::string>() : modelFolderLocator(root).names();
  };
  setModelLocator(std::move(models));
  return true;
}();

}  // namespace

QString samplePicturePath() {
  (void)kLocatorInstalled;
  return cachedSample(QLatin1String(kCastle));
}

Scene sampleScene() {
  Scene s = defaultScene();
  const QString picture = samplePicturePath();
  if (picture.isEmpty()) return s;
  try {
    Segment castle = imageSegmentFromFile(picture.toStdString(), s.imageGrid);
    castle.source.sample = kCastle;  // shown and saved as img:castle.png, not the cache path
    s.layout.segments = {Segment::text(4), castle, Segment::text(8)};
    s.design = "circle";
    // The first text token after the picture, where a question about it starts: hard
    // embedding puts it nearest the last patches, the cone equally far from all.
    s.selectedText = 4;
  } catch (const std::exception&) {
    return defaultScene();
  }
  return s;
}

}  // namespace ropescope::ui
