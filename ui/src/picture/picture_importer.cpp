#include "picture/picture_importer.h"

#include <QCollator>
#include <QFileInfo>

#include <algorithm>

#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/errors.h"
#include "ropescope/image_probe.h"
#include "ropescope/layout_files.h"

namespace ropescope::ui {

namespace {

QString pictureFilter() {
  QStringList patterns;
  for (const std::string& ext : pictureExtensions())
    patterns << QStringLiteral("*%1").arg(QString::fromStdString(ext));
  return QObject::tr("Pictures (%1);;All files (*)").arg(patterns.join(QLatin1Char(' ')));
}

// The core's message names the file; anything else still gets the file's name in front.
QString problemText(const QString& path, const std::exception& e) {
  const QString what = QString::fromStdString(e.what());
  return what.contains(QFileInfo(path).fileName()) ? what
                                                   : QStringLiteral("%1: %2").arg(path, what);
}

bool isAnimated(const std::string& path) {
  try {
    return probeImage(path).frames > 1;
  } catch (const std::exception&) {
    return false;  // imageSegmentFromFile reports the problem
  }
}

}  // namespace

PictureImporter::PictureImporter(SceneModel* model, QObject* parent)
    : QObject(parent), model_(model) {}

int PictureImporter::append(const std::vector<Segment>& segments, const QStringList& problems) {
  // What was read despite a warning (an extension that disagrees with the content) is said
  // beside the refusals.
  QStringList lines = problems;
  for (const Segment& seg : segments)
    for (const std::string& w : seg.source.warnings)
      lines << tr("warning: %1").arg(QString::fromStdString(w));
  message_ = lines.join(QLatin1Char('\n'));
  if (!segments.empty()) {
    model_->edit([&](Scene& s) {
      for (const Segment& seg : segments) s.layout.segments.push_back(seg);
    });
  }
  emit imported(message_);
  return static_cast<int>(segments.size());
}

int PictureImporter::addImages(const QStringList& files) {
  const ImageGridSettings grid = model_->scene().imageGrid;
  std::vector<Segment> segments;
  QStringList problems;
  for (const QString& file : files) {
    try {
      segments.push_back(imageSegmentFromFile(file.toStdString(), grid));
    } catch (const std::exception& e) {
      problems << problemText(file, e);
    }
  }
  return append(segments, problems);
}

int PictureImporter::addVideo(const QStringList& paths) {
  const ImageGridSettings grid = model_->scene().imageGrid;
  std::vector<Segment> segments;
  QStringList problems;
  if (paths.isEmpty()) return append(segments, problems);
  try {
    if (paths.size() == 1 && QFileInfo(paths[0]).isDir()) {
      segments.push_back(videoSegmentFromFolder(paths[0].toStdString(), grid));
    } else if (paths.size() == 1) {
      segments.push_back(videoSegmentFromAnimation(paths[0].toStdString(), grid));
    } else {
      std::vector<std::string> frames;
      for (const QString& p : paths) frames.push_back(p.toStdString());
      segments.push_back(videoSegmentFromFrames(frames, grid));
    }
  } catch (const std::exception& e) {
    problems << problemText(paths[0], e);
  }
  return append(segments, problems);
}

int PictureImporter::addDropped(const QStringList& paths) {
  const ImageGridSettings grid = model_->scene().imageGrid;
  std::vector<Segment> segments;
  QStringList problems;
  for (const QString& path : paths) {
    try {
      const std::string p = path.toStdString();
      if (QFileInfo(path).isDir()) {
        segments.push_back(videoSegmentFromFolder(p, grid));
      } else if (isAnimated(p)) {
        segments.push_back(videoSegmentFromAnimation(p, grid));
      } else {
        segments.push_back(imageSegmentFromFile(p, grid));
      }
    } catch (const std::exception& e) {
      problems << problemText(path, e);
    }
  }
  return append(segments, problems);
}

void PictureImporter::imageDialog(QWidget* parent) {
  const QStringList files =
      askOpenFiles(parent, FileKind::Picture, tr("Add image"), pictureFilter());
  if (!files.isEmpty()) addImages(files);
}

void PictureImporter::videoDialog(QWidget* parent) {
  // Several frame files or one animated GIF; Cancel offers the folder form.
  QStringList files = askOpenFiles(
      parent, FileKind::Picture,
      tr("Add video: frame files in order, or one animated GIF/WebP (Cancel: a folder)"),
      pictureFilter());
  // The dialog lists files as it sorted them; frames go in natural order (frame2 before frame10),
  // as the core orders a folder.
  QCollator natural;
  natural.setNumericMode(true);
  std::sort(files.begin(), files.end(),
            [&natural](const QString& a, const QString& b) { return natural.compare(a, b) < 0; });
  if (files.isEmpty()) {
    const QString folder =
        askFolder(parent, FileKind::Picture, tr("Add video: a folder of frames"));
    if (folder.isEmpty()) return;
    files << folder;
  }
  addVideo(files);
}

}  // namespace ropescope::ui
