// Real pictures in the GUI: loading through the importer gives the core's grid, bad files keep
// the scene and say why, a scene with a missing picture still opens, the 3-D tiles show the
// picture's own colours, and the heat overlay is the core's distance and bias.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMimeData>
#include <QPainter>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUrl>

#include <cmath>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "editors/image_grid_editor.h"
#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "figures/figure_presets.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "picture/picture_canvas.h"
#include "picture/picture_importer.h"
#include "picture/picture_source.h"
#include "picture/picture_view.h"
#include "ropescope/errors.h"
#include "ropescope/image_grid.h"
#include "ropescope/layout_files.h"
#include "ropescope/scene.h"
#include "shell/main_window.h"
#include "style/viridis.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

const QString kSamples = QStringLiteral(ROPESCOPE_SAMPLES);

QString castle() {
  return kSamples + QStringLiteral("/castle.png");
}

// A picture of 4 x 4 solid blocks of 28 px: smart_resize keeps 112 x 112, one block per token.
QColor blockColor(int row, int col) {
  return QColor::fromHsv((row * 4 + col) * 22 % 360, 200, 60 + 45 * row);
}

QString writeBlocks(const QTemporaryDir& dir) {
  QImage image(112, 112, QImage::Format_RGB32);
  QPainter p(&image);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) p.fillRect(c * 28, r * 28, 28, 28, blockColor(r, c));
  p.end();
  const QString path = dir.filePath(QStringLiteral("blocks.png"));
  EXPECT_TRUE(image.save(path));
  return path;
}

void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

QByteArray readBytes(const QString& path) {
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::ReadOnly));
  return f.readAll();
}

quint32 crc32(const QByteArray& data) {
  quint32 crc = 0xffffffffu;
  for (char ch : data) {
    crc ^= static_cast<quint8>(ch);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// castle.png with its IHDR claiming width x height (and a correct CRC).
QByteArray pngClaiming(quint32 width, quint32 height) {
  QByteArray png = readBytes(castle());
  for (int k = 0; k < 4; ++k) {
    png[16 + k] = static_cast<char>(width >> (24 - 8 * k));
    png[20 + k] = static_cast<char>(height >> (24 - 8 * k));
  }
  const quint32 crc = crc32(png.mid(12, 17));
  for (int k = 0; k < 4; ++k) png[29 + k] = static_cast<char>(crc >> (24 - 8 * k));
  return png;
}

struct Window {
  MainWindow w;
  Window() {
    w.setDarkPalette(true);
    w.model()->setScene(fixedScene());
    w.resize(1400, 900);
    showAndSettle(&w);
  }
};

QColor meanColor(const QImage& image, QPointF at, int radius = 2) {
  long sum[3] = {0, 0, 0};
  int n = 0;
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const QPoint p(qRound(at.x()) + dx, qRound(at.y()) + dy);
      if (!image.rect().contains(p)) continue;
      const QColor c = image.pixelColor(p);
      sum[0] += c.red(), sum[1] += c.green(), sum[2] += c.blue(), ++n;
    }
  if (n == 0) return {};
  return QColor(sum[0] / n, sum[1] / n, sum[2] / n);
}

int colorDistance(const QColor& a, const QColor& b) {
  return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()),
                   std::abs(a.blue() - b.blue())});
}

}  // namespace

TEST(Picture, AddingAnImageGivesTheCoresGrid) {
  Window win;
  const std::size_t before = win.w.model()->scene().layout.segments.size();
  EXPECT_EQ(win.w.importer()->addImages({castle()}), 1);
  EXPECT_TRUE(win.w.importer()->message().isEmpty());
  const Layout& layout = win.w.model()->validScene().layout;
  ASSERT_EQ(layout.segments.size(), before + 1);
  const Segment& seg = layout.segments.back();
  const ImageGrid expected = smartResize(240, 320);  // castle.png is 320 x 240
  EXPECT_EQ(seg.rows, expected.rows);
  EXPECT_EQ(seg.cols, expected.cols);
  EXPECT_EQ(seg.rows * seg.cols, 99);
  EXPECT_EQ(seg.source.resizedWidth, expected.resizedWidth);
  EXPECT_FALSE(win.w.model()->isStale());
  // Both views show it: 99 tiles in 3-D, the 9 x 11 grid on the picture.
  EXPECT_EQ(win.w.spaceView()->tiles().tileCount(), 99);
  EXPECT_EQ(win.w.pictureView()->rows(), 9);
  EXPECT_EQ(win.w.pictureView()->cols(), 11);
  EXPECT_EQ(win.w.panel()->segmentEditor()->rowCount(), static_cast<int>(before) + 1);

  // The file row moves up and is removed like any other, keeping its source.
  auto* table = win.w.panel()->findChild<QTableWidget*>(QStringLiteral("segments"));
  ASSERT_NE(table, nullptr);
  table->selectRow(static_cast<int>(before));
  for (auto* b : win.w.panel()->findChildren<QToolButton*>())
    if (b->text() == QStringLiteral("\u25b2")) QTest::mouseClick(b, Qt::LeftButton);
  const Layout& moved = win.w.model()->validScene().layout;
  ASSERT_EQ(moved.segments.size(), before + 1);
  EXPECT_TRUE(moved.segments[before - 1].source.isFile());
  EXPECT_EQ(moved.segments[before - 1].rows, 9);
  for (auto* b : win.w.panel()->findChildren<QToolButton*>())
    if (b->text() == QStringLiteral("Remove")) QTest::mouseClick(b, Qt::LeftButton);
  EXPECT_EQ(win.w.model()->validScene().layout.segments.size(), before);
  EXPECT_EQ(win.w.spaceView()->tiles().tileCount(), 0);
  ASSERT_EQ(win.w.importer()->addImages({castle()}), 1);

  // Dropped files: several files are several images, a folder is one video.
  const int added = win.w.importer()->addDropped(
      {castle(), kSamples + QStringLiteral("/checker.png"), kSamples + QStringLiteral("/frames")});
  EXPECT_EQ(added, 3);
  const Layout& after = win.w.model()->validScene().layout;
  ASSERT_EQ(after.segments.size(), before + 4);
  EXPECT_EQ(after.segments[before + 2].rows, 8);  // checker.png: 224 x 224
  EXPECT_EQ(after.segments[before + 3].kind, SegmentKind::Video);
  EXPECT_EQ(after.segments[before + 3].frames, 2);  // 4 frames in temporal pairs
}

TEST(Picture, VideoTilesShowTheFirstFrameOfEachTemporalPair) {
  Window win;
  ASSERT_EQ(win.w.importer()->addVideo({kSamples + QStringLiteral("/moving.gif")}), 1);
  const Segment& seg = win.w.model()->validScene().layout.segments.back();
  EXPECT_EQ(seg.kind, SegmentKind::Video);
  EXPECT_EQ(seg.frames, 4);  // 8 frames in temporal pairs
  EXPECT_EQ(win.w.spaceView()->tiles().tileCount(), 64);
  EXPECT_EQ(win.w.spaceView()->tiles().textureCount(), 4);
  EXPECT_TRUE(win.w.spaceView()->tiles().problems().isEmpty());
  // The 3-D tooltip says which frame a tile shows.
  const PositionIds& ids = win.w.spaceView()->ids();
  long token = -1;
  for (std::size_t t = 0; t < ids.size(); ++t)
    if (ids.tokens[t].segment == 3 && ids.tokens[t].frame == 2 && token < 0)
      token = static_cast<long>(t);
  ASSERT_GE(token, 0);
  EXPECT_TRUE(win.w.spaceView()->describeToken(token).contains(QStringLiteral("frame 4")))
      << win.w.spaceView()->describeToken(token).toStdString();
  // Picking a token of temporal patch 2 shows that patch's picture.
  long visual = -1;
  for (std::size_t t = 0, v = 0; t < ids.size(); ++t) {
    if (ids.tokens[t].modality == Modality::Text) continue;
    if (static_cast<long>(t) == token) visual = static_cast<long>(v);
    ++v;
  }
  win.w.model()->setSelectedVisual(visual);
  win.w.pictureView()->showSegment(3);
  EXPECT_EQ(win.w.pictureView()->temporal(), 2);
  EXPECT_TRUE(win.w.pictureView()->caption().contains(QStringLiteral("frame 4")));
}

TEST(Picture, DroppingFilesOnTheSegmentListAddsThem) {
  Window win;
  auto* mime = new QMimeData;
  mime->setUrls(
      {QUrl::fromLocalFile(castle()), QUrl::fromLocalFile(kSamples + QStringLiteral("/frames"))});
  SegmentListEditor* list = win.w.panel()->segmentEditor();
  const QPoint at = list->rect().center();
  QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(list, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(at), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(list, &drop);
  const Layout& layout = win.w.model()->validScene().layout;
  ASSERT_EQ(layout.segments.size(), 5u);
  EXPECT_EQ(layout.segments[3].kind, SegmentKind::Image);
  EXPECT_EQ(layout.segments[4].kind, SegmentKind::Video);
  // The same on the window itself (anywhere outside the list).
  QDragEnterEvent enterWindow(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&win.w, &enterWindow);
  EXPECT_TRUE(enterWindow.isAccepted());
  QDropEvent onWindow(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&win.w, &onWindow);
  EXPECT_EQ(win.w.model()->validScene().layout.segments.size(), 7u);
  delete mime;
}

TEST(Picture, MenusOfferPicturesAndTileFacing) {
  Window win;
  QAction* addImage = nullptr;
  QAction* inPlane = nullptr;
  for (QAction* a : win.w.findChildren<QAction*>()) {
    if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_I)) addImage = a;
    if (a->text().contains(QStringLiteral("ring"))) inPlane = a;
  }
  ASSERT_NE(addImage, nullptr);
  EXPECT_TRUE(addImage->text().contains(QStringLiteral("image")));
  ASSERT_NE(inPlane, nullptr);
  EXPECT_EQ(win.w.spaceView()->tileFacing(), TileFacing::Camera);
  inPlane->trigger();
  EXPECT_EQ(win.w.spaceView()->tileFacing(), TileFacing::RingPlane);
}

TEST(Picture, ChangingTheGridPresetRegridsThePictures) {
  Window win;
  ASSERT_EQ(win.w.importer()->addImages({castle()}), 1);
  win.w.panel()->imageGridEditor()->applyPreset(QStringLiteral("qwen3-vl"));
  const ImageGrid expected = smartResize(240, 320, imageGridPreset("qwen3-vl"));
  const Segment& seg = win.w.model()->validScene().layout.segments.back();
  EXPECT_EQ(seg.rows, expected.rows);
  EXPECT_EQ(seg.cols, expected.cols);
  EXPECT_EQ(win.w.pictureView()->rows(), expected.rows);
  EXPECT_EQ(win.w.spaceView()->tiles().tileCount(), expected.rows * expected.cols);

  // A picture typed into the spec line is cut with the scene's settings too.
  auto* spec = win.w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(spec, nullptr);
  spec->setText(QStringLiteral("t2,img:%1,t2").arg(castle()));
  QTest::keyClick(spec, Qt::Key_Return);
  const Layout& typed = win.w.model()->validScene().layout;
  ASSERT_EQ(typed.segments.size(), 3u);
  EXPECT_EQ(typed.segments[1].rows, expected.rows);
  EXPECT_EQ(typed.segments[1].cols, expected.cols);
}

TEST(Picture, BadFilesKeepTheSceneAndSayWhy) {
  Window win;
  QTemporaryDir dir;
  const QString empty = dir.filePath(QStringLiteral("empty.png"));
  const QString truncated = dir.filePath(QStringLiteral("truncated.png"));
  const QString text = dir.filePath(QStringLiteral("notes.jpg"));
  const QString huge = dir.filePath(QStringLiteral("huge.png"));
  writeBytes(empty, {});
  writeBytes(truncated, readBytes(castle()).left(300));
  writeBytes(text, "this is not a picture\n");
  writeBytes(huge, pngClaiming(30000, 30000));
  const Scene before = win.w.model()->scene();
  for (const QString& bad : {empty, truncated, text, huge}) {
    SCOPED_TRACE(bad.toStdString());
    EXPECT_EQ(win.w.importer()->addImages({bad}), 0);
    EXPECT_TRUE(win.w.model()->scene() == before);
    EXPECT_FALSE(win.w.model()->isStale());
    const QString shown = win.w.panel()->segmentEditor()->fileMessage();
    EXPECT_TRUE(shown.contains(QFileInfo(bad).fileName())) << shown.toStdString();
    EXPECT_TRUE(win.w.isVisible());
    // The message is beside the list on screen: the status bar keeps the scene's PTD and bias.
    EXPECT_TRUE(win.w.statusBar()->currentMessage().isEmpty())
        << win.w.statusBar()->currentMessage().toStdString();
  }
  // A good file among bad ones is still added, and the message names only the bad one.
  EXPECT_EQ(win.w.importer()->addDropped({huge, castle()}), 1);
  EXPECT_TRUE(win.w.panel()->segmentEditor()->fileMessage().contains(QStringLiteral("huge.png")));
  EXPECT_FALSE(win.w.panel()->segmentEditor()->fileMessage().contains(QStringLiteral("castle")));
  EXPECT_EQ(win.w.model()->scene().layout.segments.size(), before.layout.segments.size() + 1);
  // The next clean import clears the message.
  EXPECT_EQ(win.w.importer()->addImages({castle()}), 1);
  EXPECT_TRUE(win.w.panel()->segmentEditor()->fileMessage().isEmpty());
}

// docs/user/inputs.md: a picture whose extension disagrees with its content is read by content,
// with a warning. The GUI says it beside the segment list, whether the picture is added or comes
// in an opened scene; it is added all the same.
TEST(Picture, AWrongExtensionIsReadByContentWithAWarning) {
  QTemporaryDir dir;
  const QString wrong = dir.filePath(QStringLiteral("really-png.jpg"));
  ASSERT_TRUE(QFile::copy(castle(), wrong));
  Window win;
  const std::size_t before = win.w.model()->scene().layout.segments.size();
  EXPECT_EQ(win.w.importer()->addImages({wrong}), 1);
  EXPECT_EQ(win.w.model()->scene().layout.segments.size(), before + 1);
  const QString added = win.w.panel()->segmentEditor()->fileMessage();
  EXPECT_TRUE(added.contains(QStringLiteral("warning: ")) && added.contains(wrong) &&
              added.contains(QStringLiteral("the extension says JPEG but the content is PNG")))
      << added.toStdString();

  Scene scene = fixedScene();
  scene.layout.segments = {Segment::text(3), imageSegmentFromFile(wrong.toStdString())};
  const QString file = dir.filePath(QStringLiteral("scene.json"));
  saveSceneFile(scene, file.toStdString());
  Window opened;
  EXPECT_TRUE(opened.w.openFile(file));
  EXPECT_EQ(opened.w.model()->validScene().layout.segments.size(), 2u);
  const QString shown = opened.w.panel()->segmentEditor()->fileMessage();
  EXPECT_TRUE(shown.contains(QStringLiteral("warning: ")) && shown.contains(wrong))
      << shown.toStdString();
  EXPECT_FALSE(opened.w.isModified());  // nothing was left out
}

TEST(Picture, SceneWithAMissingPictureOpensWithTheProblemListed) {
  QTemporaryDir dir;
  const QString picture = dir.filePath(QStringLiteral("photo.png"));
  ASSERT_TRUE(QFile::copy(castle(), picture));
  Scene scene = fixedScene();
  scene.layout.segments = {Segment::text(3), imageSegmentFromFile(picture.toStdString()),
                           Segment::text(5), Segment::image(2, 2)};
  const QString file = dir.filePath(QStringLiteral("scene.json"));
  saveSceneFile(scene, file.toStdString());
  ASSERT_TRUE(QFile::remove(picture));

  Window win;
  EXPECT_TRUE(win.w.openFile(file));
  const Layout& layout = win.w.model()->validScene().layout;
  ASSERT_EQ(layout.segments.size(), 3u);  // the text runs and the plain grid are kept
  EXPECT_EQ(layout.segments[2].rows, 2);
  EXPECT_FALSE(win.w.model()->isStale());
  const QString shown = win.w.panel()->segmentEditor()->fileMessage();
  EXPECT_TRUE(shown.contains(QStringLiteral("photo.png"))) << shown.toStdString();
  EXPECT_TRUE(win.w.isModified());  // saving would write a scene without the picture
  EXPECT_EQ(win.w.pictureView()->shownSegment(), -1);
}

TEST(Picture, TexturedTilesShowThePicturesColours) {
  QTemporaryDir dir;
  const QString blocks = writeBlocks(dir);
  MainWindow w;
  w.setDarkPalette(true);
  Scene scene = fixedScene();
  scene.design = "mrope";
  scene.layout.segments = {imageSegmentFromFile(blocks.toStdString())};  // no text: no cone
  w.model()->setScene(scene);
  w.spaceView()->setFixedSize(480, 360);
  showAndSettle(&w);
  // Straight down the t axis onto the (h, w) grid, rows downwards: no tile hides another.
  vtkCamera* cam = w.spaceView()->camera();
  cam->SetFocalPoint(0, 1.5, 1.5);
  cam->SetPosition(40, 1.5, 1.5);
  cam->SetViewUp(0, -1, 0);
  w.spaceView()->renderer()->ResetCameraClippingRange();
  w.spaceView()->update();
  const QImage image = w.spaceView()->grabFramebuffer();
  if (!qEnvironmentVariableIsEmpty("ROPESCOPE_SCREENSHOT_DIR"))
    image.save(qEnvironmentVariable("ROPESCOPE_SCREENSHOT_DIR") + QStringLiteral("/blocks.png"));
  ASSERT_FALSE(looksBlank(image));
  EXPECT_EQ(w.spaceView()->tiles().tileCount(), 16);
  EXPECT_EQ(w.spaceView()->tiles().textureCount(), 1);
  const PositionIds& ids = w.spaceView()->ids();
  const double s = image.devicePixelRatioF();
  int matched = 0;
  for (std::size_t t = 0; t < ids.size(); ++t) {
    const TokenInfo& info = ids.tokens[t];
    const QPointF at = w.spaceView()->tokenPosition(static_cast<long>(t)) * s;
    const QColor seen = meanColor(image, at);
    const QColor want = blockColor(info.row, info.col);
    EXPECT_LE(colorDistance(seen, want), 40)
        << "tile " << info.row << "," << info.col << " seen " << seen.name().toStdString()
        << " want " << want.name().toStdString();
    matched += colorDistance(seen, want) <= 40;
  }
  EXPECT_EQ(matched, 16);
  EXPECT_EQ(w.spaceView()->glErrorCount(), 0);
}

TEST(Picture, TexturedViewBaseline) {
  MainWindow w;
  w.setDarkPalette(true);
  w.startWith(sampleScene());
  w.spaceView()->setFixedSize(480, 360);
  showAndSettle(&w);
  const QImage image = w.spaceView()->grabFramebuffer();
  ASSERT_FALSE(looksBlank(image));
  EXPECT_EQ(w.spaceView()->tiles().tileCount(), 99);
  EXPECT_GT(distinctColors(image), 200);  // a picture, not a handful of flat point colours
  matchesBaseline(image, QStringLiteral("picture_tiles.png"), 0.03);

  // Tiles in the ring's plane are a different picture of the same tokens.
  w.spaceView()->setTileFacing(TileFacing::RingPlane);  // rebuilds the tiles at once
  const QImage planar = w.spaceView()->grabFramebuffer();
  if (!qEnvironmentVariableIsEmpty("ROPESCOPE_SCREENSHOT_DIR")) {
    image.save(qEnvironmentVariable("ROPESCOPE_SCREENSHOT_DIR") + QStringLiteral("/tiles.png"));
    planar.save(qEnvironmentVariable("ROPESCOPE_SCREENSHOT_DIR") + QStringLiteral("/planar.png"));
  }
  EXPECT_FALSE(looksBlank(planar));
  // Circle-RoPE's ring: tiles sized to the ring's spacing (never meeting) are small.
  EXPECT_GT(compareImages(image, planar).differingFraction, 0.0004);
  EXPECT_EQ(w.spaceView()->glErrorCount(), 0);
}

TEST(Picture, HeatOverlayIsTheCoresDistanceAndBias) {
  MainWindow w;
  w.startWith(sampleScene());
  w.resize(1400, 900);
  showAndSettle(&w);
  PictureView* view = w.pictureView();
  ASSERT_EQ(view->rows(), 9);
  const SceneMetrics& m = w.model()->metrics();
  for (PictureOverlay overlay : {PictureOverlay::Distance, PictureOverlay::Bias}) {
    view->setOverlay(overlay);
    const std::vector<double>& core =
        overlay == PictureOverlay::Distance ? m.selectedDistance : m.selectedBias;
    double lo = 1e300, hi = -1e300;
    for (double v : core) lo = std::min(lo, v), hi = std::max(hi, v);
    for (int r = 0; r < view->rows(); ++r)
      for (int c = 0; c < view->cols(); ++c) {
        const long v = view->visualIndex(r, c);
        ASSERT_GE(v, 0);
        EXPECT_EQ(view->overlayValue(r, c), core[v]);
        const bool flat = hi - lo <= 1e-9 * std::max(1.0, std::abs(hi));
        EXPECT_EQ(view->overlayIsFlat(), flat);
        const QColor want = viridis(flat ? 0.5 : (core[v] - lo) / (hi - lo));
        EXPECT_EQ(view->overlayColor(r, c), want) << r << "," << c;
      }
    EXPECT_DOUBLE_EQ(view->canvas()->min(), lo);
    EXPECT_DOUBLE_EQ(view->canvas()->max(), hi);
  }
  // Under hard embedding the text token after the picture is nearest to the last patches: the
  // map runs over the whole colour range, first patch farthest (yellow), last nearest (purple).
  Scene hard = w.model()->scene();
  hard.design = "hard";
  hard.designParams = {};
  w.model()->setScene(hard);
  view->setOverlay(PictureOverlay::Distance);
  EXPECT_FALSE(view->overlayIsFlat());
  EXPECT_EQ(view->overlayColor(0, 0), viridis(1.0));
  EXPECT_EQ(view->overlayColor(8, 10), viridis(0.0));
  // Grid only: no values.
  view->setOverlay(PictureOverlay::None);
  EXPECT_TRUE(std::isnan(view->overlayValue(0, 0)));
}

TEST(Picture, PickingAPatchSelectsItInBothViews) {
  MainWindow w;
  w.startWith(sampleScene());
  w.resize(1400, 900);
  showAndSettle(&w);
  PictureView* view = w.pictureView();
  const QRectF cell = view->cellRect(2, 7);
  ASSERT_FALSE(cell.isEmpty());
  QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, cell.center().toPoint());
  EXPECT_EQ(w.model()->selectedVisual(), view->visualIndex(2, 7));
  EXPECT_EQ(view->visualIndex(2, 7), 2 * 11 + 7);

  // A patch picked in 3-D: click where the view draws visual token 40 (row 3, col 7).
  const PositionIds& ids = w.spaceView()->ids();
  long token = -1;
  for (std::size_t t = 0, v = 0; t < ids.size(); ++t)
    if (ids.tokens[t].modality != Modality::Text && v++ == 40) token = static_cast<long>(t);
  ASSERT_GE(token, 0);
  const QPointF at = w.spaceView()->tokenPosition(token);
  ASSERT_EQ(w.spaceView()->tokenAt(at.toPoint()), token);
  QTest::mouseClick(w.spaceView(), Qt::LeftButton, {}, at.toPoint());
  EXPECT_EQ(w.model()->selectedVisual(), 40);
  const QImage canvas = view->canvas()->grab().toImage();
  // The picture view outlines that patch in yellow.
  const QRectF picked = view->cellRect(3, 7);
  const QColor edge = canvas.pixelColor(
      (QPointF(picked.center().x(), picked.top()) * canvas.devicePixelRatioF()).toPoint());
  EXPECT_GT(edge.red(), 200);
  EXPECT_GT(edge.green(), 180);
  EXPECT_LT(edge.blue(), 120);
}

TEST(Picture, StartSceneUsesTheSamplePicture) {
  const Scene s = sampleScene();
  ASSERT_EQ(s.layout.segments.size(), 3u);
  EXPECT_TRUE(s.layout.segments[1].source.isFile());
  EXPECT_EQ(s.layout.segments[1].rows, 9);
  EXPECT_EQ(s.layout.segments[1].cols, 11);
  EXPECT_EQ(s.design, "circle");
}

// the start scene's layout line showed the sample's cache path
// (~/.cache/ropescope/ropescope/samples/castle.png) and a saved scene kept it, so the scene
// broke when the cache was cleared or the file shared. It is img:castle.png, which names the
// shipped sample wherever it lives.
TEST(Picture, TheStartScenesPictureIsTheSampleByNameOnScreenAndInItsFile) {
  MainWindow w;
  w.startWith(sampleScene());
  auto* spec = w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->text(), QStringLiteral("t4,img:castle.png,t8"));
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("start.json"));
  ASSERT_TRUE(w.saveTo(path));
  QFile saved(path);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  const QByteArray text = saved.readAll();
  EXPECT_TRUE(text.contains("\"t4,img:castle.png,t8\"")) << text.toStdString();
  EXPECT_FALSE(text.contains(".cache")) << text.toStdString();
  // Reopened (from a folder without a castle.png of its own): the same scene and grid.
  const SceneLoadReport report = loadSceneFileReport(path.toStdString());
  EXPECT_TRUE(report.problems.empty());
  EXPECT_EQ(report.scene, sampleScene());
  ASSERT_EQ(report.scene.layout.segments.size(), 3u);
  EXPECT_EQ(report.scene.layout.segments[1].rows, 9);
  EXPECT_EQ(report.scene.layout.segments[1].cols, 11);
  ASSERT_TRUE(w.openFile(path));
  EXPECT_FALSE(w.isModified());
  EXPECT_EQ(spec->text(), QStringLiteral("t4,img:castle.png,t8"));
  // Even once the cached copy is gone (the cache cleared).
  ASSERT_TRUE(QFile::remove(samplePicturePath()));
  EXPECT_EQ(loadSceneFileReport(path.toStdString()).scene, sampleScene());
}

// A preset's picture is the sample by name too: its layout line and a saved scene say
// img:castle.png, not the cache folder it was read from.
TEST(Picture, APresetsPictureIsTheSampleByName) {
  const Scene scene = findFigurePreset("circle-picture").scene;
  const std::string spec = formatLayoutSpec(scene.layout);
  EXPECT_EQ(spec, "t4,img:castle.png,t8");
  EXPECT_EQ(sceneToJson(scene).find(".cache"), std::string::npos);
}

// The rule: a file of that name beside the scene is the user's own and wins over the sample;
// a name that is neither a file nor a sample is a missing file; a path is never a sample.
TEST(Picture, AUsersOwnFileOfASamplesNameWinsAndOtherNamesAreFiles) {
  QTemporaryDir dir;
  ASSERT_TRUE(QFile::copy(kSamples + QStringLiteral("/checker.png"),
                          dir.filePath(QStringLiteral("castle.png"))));
  const std::string base = dir.path().toStdString();
  const Layout own = parseLayoutSpec("t2,img:castle.png", {base, {}});
  const Segment& picture = own.segments[1];
  EXPECT_TRUE(picture.source.sample.empty());
  EXPECT_EQ(picture.source.path, dir.filePath(QStringLiteral("castle.png")).toStdString());
  EXPECT_EQ(formatLayoutSpec(own, base), "t2,img:castle.png");  // the user's file, relative
  const Layout sample =
      parseLayoutSpec("t2,img:castle.png", {kSamples.toStdString() + "/frames", {}});
  EXPECT_EQ(sample.segments[1].source.sample, "castle.png");
  EXPECT_EQ(sample.segments[1].rows, 9);
  EXPECT_THROW(parseLayoutSpec("t2,img:no-such-sample.png", {base, {}}), InputError);
  EXPECT_THROW(parseLayoutSpec("t2,img:elsewhere/castle.png", {base, {}}), InputError);
}

TEST(Picture, TransparentPixelsShowOverWhite) {
  QTemporaryDir dir;
  QImage image(56, 56, QImage::Format_ARGB32);
  image.fill(Qt::transparent);
  image.setPixelColor(0, 0, QColor(200, 10, 10));
  const QString path = dir.filePath(QStringLiteral("clear.png"));
  ASSERT_TRUE(image.save(path));
  const Segment seg = imageSegmentFromFile(path.toStdString());
  QString error;
  const QImage shown = pictureFrame(seg.source, 0, &error);
  ASSERT_FALSE(shown.isNull()) << error.toStdString();
  EXPECT_EQ(shown.pixelColor(30, 30), QColor(Qt::white));
  EXPECT_EQ(shown.pixelColor(0, 0), QColor(200, 10, 10));
  const QImage resized = resizedPictureFrame(seg.source, 0);
  EXPECT_EQ(resized.size(), QSize(seg.source.resizedWidth, seg.source.resizedHeight));
}

TEST(Picture, ViridisIsThePublishedMap) {
  EXPECT_EQ(viridis(0.0), QColor(68, 1, 84));
  EXPECT_EQ(viridis(1.0), QColor(253, 231, 37));
  EXPECT_EQ(viridis(4.0 / 9.0), QColor(38, 130, 142));
  // Perceptually ordered: lightness rises all the way.
  double last = -1;
  for (int k = 0; k <= 64; ++k) {
    const double l = viridis(k / 64.0).lightnessF();
    EXPECT_GT(l, last - 0.02) << k;
    last = l;
  }
}
