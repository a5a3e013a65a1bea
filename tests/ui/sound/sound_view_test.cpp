// The Sound tab: token spans from the core, clicking a span selects its audio token
// (and the 3-D view's audio track highlights it, and back), the overlay is the core's distance
// and bias, the segment list has audio rows, the "sound" figure exports, and a layout without
// audio shows the tab's hint without crashing.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "figures/figure_views.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "model/segment_names.h"
#include "ropescope/errors.h"
#include "ropescope/metrics.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/sound_display.h"
#include "shell/main_window.h"
#include "sound/sound_importer.h"
#include "sound/sound_picture.h"
#include "sound/sound_spectrogram.h"
#include "sound/sound_view.h"
#include "sound/sound_waveform.h"
#include "style/color_scale.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// Text, two audio runs around an image: audio tokens 0..11 are segment 1, 12..16 segment 4.
Scene audioScene() {
  Scene s = fixedScene();
  s.layout = parseLayoutSpec("t4,a12,i3x3,t3,a5");
  s.selectedText = 5;
  return s;
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
  return f.readAll();
}

}  // namespace

TEST(SoundView, NoAudioShowsTheHintWithoutCrashing) {
  SceneModel model;
  model.setScene(fixedScene());
  SoundView view(&model);
  view.resize(600, 400);
  view.show();
  EXPECT_EQ(view.shownSegment(), -1);
  EXPECT_TRUE(view.spans().empty());
  EXPECT_TRUE(view.caption().contains(QStringLiteral("No audio"))) << view.caption().toStdString();
  view.setSelectedAudio(3);  // nothing to select
  EXPECT_EQ(view.selectedAudio(), -1);
  QTest::mouseClick(view.waveform(), Qt::LeftButton, {}, view.waveform()->rect().center());
  QTest::mouseClick(view.spectrogramCanvas(), Qt::LeftButton, {},
                    view.spectrogramCanvas()->rect().center());
  view.setOverlay(SoundOverlay::Bias);
  EXPECT_TRUE(view.overlayValues().empty());
  (void)view.grab();  // paints both canvases
}

// A user's-eye report: with no audio in the layout the Sound tab drew the waveform's and the
// spectrogram's empty axes under its message. Without audio only the message shows (in the
// tab's middle); audio added brings the plots back, and taking it out hides them again.
TEST(SoundView, NoAudioShowsTheMessageAndNoEmptyPlots) {
  SceneModel model;
  model.setScene(fixedScene());
  SoundView view(&model);
  view.resize(600, 400);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  EXPECT_FALSE(view.waveform()->isVisible());
  EXPECT_FALSE(view.spectrogramCanvas()->isVisible());
  auto* caption = view.findChild<QLabel*>(QStringLiteral("soundCaption"));
  ASSERT_NE(caption, nullptr);
  EXPECT_TRUE(caption->isVisible());
  EXPECT_TRUE(caption->text().contains(QStringLiteral("No audio")));
  EXPECT_GT(caption->height(), view.height() / 2) << "the message fills the tab";
  model.setScene(audioScene());
  ASSERT_TRUE(waitUntil([&] { return view.waveform()->isVisible(); }));
  EXPECT_TRUE(view.spectrogramCanvas()->isVisible());
  model.setScene(fixedScene());
  ASSERT_TRUE(waitUntil([&] { return !view.waveform()->isVisible(); }));
  EXPECT_FALSE(view.spectrogramCanvas()->isVisible());
}

TEST(SoundView, SpansAreTheCoresAndClickingOneSelectsItsToken) {
  SceneModel model;
  model.setScene(audioScene());
  SoundView view(&model);
  view.resize(900, 500);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  ASSERT_EQ(view.shownSegment(), 1);
  EXPECT_TRUE(view.caption().startsWith(QStringLiteral("audio 1"))) << view.caption().toStdString();
  // The spans: 0.04 s per token of Qwen2.5-Omni (25 temporal ids per second), from the ids.
  ASSERT_EQ(view.spans().size(), 17u);
  ASSERT_EQ(view.spanAudio().size(), 12u);  // the shown segment's
  for (std::size_t a = 0; a < 12; ++a) {
    EXPECT_EQ(view.spans()[a].segment, 1);
    EXPECT_NEAR(view.spans()[a].start, 0.04 * a, 1e-12);
  }
  // Silence as long as the tokens, 12 x 0.04 s, without samples held.
  EXPECT_TRUE(view.picture().clip.silent);
  EXPECT_TRUE(view.picture().clip.mono.empty());
  EXPECT_NEAR(view.picture().clip.seconds(), 0.48, 1e-12);
  EXPECT_NEAR(view.picture().duration, 0.48, 1e-12);

  QSignalSpy clicked(&view, &SoundView::audioTokenClicked);
  for (long a : {0L, 4L, 11L}) {
    const QRectF r = view.spanRect(a);
    ASSERT_FALSE(r.isEmpty()) << a;
    QTest::mouseClick(view.waveform(), Qt::LeftButton, {}, r.center().toPoint());
    ASSERT_EQ(clicked.size(), 1) << a;
    EXPECT_EQ(clicked.takeFirst().at(0).toLongLong(), a);
    EXPECT_EQ(view.selectedAudio(), a);
    EXPECT_EQ(view.picture().selected, a);  // segment 1's spans start at audio token 0
  }
  // The spectrogram canvas shares the time axis: its click at the same x picks the same token.
  const QRectF r = view.spanRect(7);
  QTest::mouseClick(
      view.spectrogramCanvas(), Qt::LeftButton, {},
      QPoint(static_cast<int>(r.center().x()), view.spectrogramCanvas()->height() / 2));
  ASSERT_EQ(clicked.size(), 1);
  EXPECT_EQ(clicked.takeFirst().at(0).toLongLong(), 7);
  // Selecting a token of the other run switches the segment shown.
  view.setSelectedAudio(14);
  EXPECT_EQ(view.shownSegment(), 4);
  EXPECT_EQ(view.picture().selected, 2);
  EXPECT_TRUE(view.caption().startsWith(QStringLiteral("audio 2")));
  // Outside every span (the right margin of the plot): no selection change.
  QTest::mouseClick(view.waveform(), Qt::LeftButton, {},
                    QPoint(view.waveform()->width() - 3, view.waveform()->height() / 2));
  EXPECT_EQ(clicked.size(), 0);
  EXPECT_EQ(view.selectedAudio(), 14);
}

TEST(SoundView, OverlayIsTheCoresDistanceAndBias) {
  SceneModel model;
  model.setScene(audioScene());
  SoundView view(&model);
  const SceneMetrics& m = model.metrics();
  ASSERT_GE(m.selectedToken, 0);
  const auto text = static_cast<std::size_t>(m.selectedToken);
  const std::vector<std::size_t> audio = m.ids.audioIndices();
  ASSERT_EQ(audio.size(), 17u);
  view.setOverlay(SoundOverlay::Distance);
  for (std::size_t a = 0; a < audio.size(); ++a)
    EXPECT_DOUBLE_EQ(view.overlayValue(static_cast<long>(a)), tokenDistance(m.ids, text, audio[a]))
        << a;
  view.setOverlay(SoundOverlay::Bias);
  for (std::size_t a = 0; a < audio.size(); ++a)
    EXPECT_DOUBLE_EQ(view.overlayValue(static_cast<long>(a)),
                     positionalBias(m.pairs, displacement(m.ids, text, audio[a])))
        << a;
  // The colours span the shown run's range.
  const auto& values = view.picture().overlay;
  ASSERT_EQ(values.size(), 12u);
  EXPECT_DOUBLE_EQ(view.picture().overlayMin, *std::min_element(values.begin(), values.end()));
  EXPECT_DOUBLE_EQ(view.picture().overlayMax, *std::max_element(values.begin(), values.end()));
  // A different text token moves the overlay with it.
  model.setSelectedText(0);
  const std::size_t first = static_cast<std::size_t>(model.metrics().selectedToken);
  EXPECT_DOUBLE_EQ(
      view.overlayValue(3),
      positionalBias(model.metrics().pairs, displacement(model.metrics().ids, first, audio[3])));
  view.setOverlay(SoundOverlay::None);
  EXPECT_TRUE(std::isnan(view.overlayValue(3)));
  EXPECT_TRUE(view.picture().overlay.empty());
}

TEST(SoundView, PickingIsLinkedWithThe3DView) {
  MainWindow w;
  w.startWith(audioScene());
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.showSideTab(QStringLiteral("sound"));
  SoundView* sound = w.soundView();
  PositionSpaceView* space = w.spaceView();
  ASSERT_TRUE(waitUntil([&] { return sound->isVisible() && sound->waveform()->width() > 100; }));
  // The 3-D view has the audio tokens as their own track.
  ASSERT_EQ(space->audioTokens().size(), 17u);
  EXPECT_EQ(space->audioTokens()[0], 4);  // after the 4 text tokens
  // Sound tab -> 3-D view.
  const QRectF r = sound->spanRect(6);
  QTest::mouseClick(sound->waveform(), Qt::LeftButton, {}, r.center().toPoint());
  EXPECT_EQ(space->selectedAudio(), 6);
  // 3-D view -> Sound tab: a click on an audio token's point.
  const long token = space->audioTokens()[15];
  const QPointF at = space->tokenPosition(token);
  ASSERT_GE(at.x(), 0);
  ASSERT_EQ(space->tokenAt(at.toPoint()), token);
  QSignalSpy picked(space, &PositionSpaceView::audioTokenClicked);
  QTest::mouseClick(space, Qt::LeftButton, {}, at.toPoint());
  ASSERT_EQ(picked.size(), 1);
  EXPECT_EQ(sound->selectedAudio(), 15);
  EXPECT_EQ(space->selectedAudio(), 15);
  EXPECT_EQ(sound->shownSegment(), 4);
  EXPECT_TRUE(space->describeToken(token).contains(QStringLiteral("audio token 15")));
  // The text/visual selection is untouched: the visual index counts images and videos only.
  EXPECT_EQ(w.model()->selectedVisual(), -1);
}

TEST(SoundView, SegmentListHasAudioRows) {
  MainWindow w;
  w.startWith(audioScene());
  SegmentListEditor* editor = w.panel()->segmentEditor();
  auto* table = editor->findChild<QTableWidget*>(QStringLiteral("segments"));
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rowCount(), 5);
  auto* kind = qobject_cast<QComboBox*>(table->cellWidget(1, 0));
  ASSERT_NE(kind, nullptr);
  EXPECT_EQ(kind->currentText(), QStringLiteral("audio"));
  // Switching the text row 0 to audio gives an audio run of 40 tokens.
  auto* first = qobject_cast<QComboBox*>(table->cellWidget(0, 0));
  first->setCurrentIndex(static_cast<int>(SegmentKind::Audio));
  ASSERT_TRUE(waitUntil([&] { return w.model()->scene().layout.segments[0].isAudio(); }));
  EXPECT_EQ(w.model()->scene().layout.segments[0].length, 40);
  EXPECT_EQ(audioSegmentName(w.model()->scene().layout, 4), QStringLiteral("audio 3"));
  EXPECT_EQ(segmentName(w.model()->scene().layout, 2), QStringLiteral("image 1"));
  EXPECT_TRUE(segmentName(w.model()->scene().layout, 3).isEmpty());  // text
}

TEST(SoundView, RefusedSoundFilesAreNamedAndTheSceneKept) {
  SceneModel model;
  model.setScene(audioScene());
  SoundImporter importer(&model);
  QTemporaryDir dir;
  const QString bad = dir.filePath(QStringLiteral("noise.wav"));
  {
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("RIFF garbage, not a sound");
  }
  EXPECT_EQ(importer.addSounds({bad, dir.filePath(QStringLiteral("a,b.wav"))}), 0);
  const QStringList lines = importer.message().split(QLatin1Char('\n'));
  ASSERT_EQ(lines.size(), 2) << importer.message().toStdString();
  // The file and its problem, not "layout item 1" of a layout the user never wrote.
  EXPECT_TRUE(lines[0].startsWith(bad + QStringLiteral(": is not a sound file")))
      << lines[0].toStdString();
  EXPECT_TRUE(lines[1].contains(QStringLiteral("comma"))) << lines[1].toStdString();
  EXPECT_EQ(model.scene().layout, audioScene().layout);
  EXPECT_TRUE(isSoundFile(QStringLiteral("/x/Clip.FLAC")));
  EXPECT_FALSE(isSoundFile(QStringLiteral("/x/castle.png")));
}

TEST(SoundView, FigureExportsEveryFormatWithTheCoresNumbers) {
  QTemporaryDir dir;
  const Scene scene = audioScene();
  FigureOptions o;
  for (const char* ext : {"png", "svg", "pdf", "csv", "json"}) {
    const QString path = dir.filePath(QStringLiteral("sound.") + QLatin1String(ext));
    exportFigure(scene, "sound", path.toStdString(), o);
    EXPECT_GT(readAll(path).size(), 100) << ext;
  }
  const QImage png(dir.filePath(QStringLiteral("sound.png")));
  EXPECT_EQ(png.size(), o.size);
  // The CSV: one row per audio token, the distance and bias the core gives.
  const SceneMetrics m = computeSceneMetrics(scene);
  const std::vector<std::size_t> audio = m.ids.audioIndices();
  const QList<QByteArray> lines =
      readAll(dir.filePath(QStringLiteral("sound.csv"))).trimmed().split('\n');
  ASSERT_EQ(lines.size(), 1 + 17);
  EXPECT_EQ(lines[0], QByteArray("audio,token,segment,index,start_s,end_s,distance,bias"));
  for (std::size_t a = 0; a < audio.size(); ++a) {
    const QList<QByteArray> cells = lines[1 + static_cast<int>(a)].split(',');
    ASSERT_EQ(cells.size(), 8);
    EXPECT_EQ(cells[1].toLongLong(), static_cast<long long>(audio[a]));
    EXPECT_DOUBLE_EQ(cells[6].toDouble(),
                     tokenDistance(m.ids, static_cast<std::size_t>(m.selectedToken), audio[a]));
    EXPECT_DOUBLE_EQ(
        cells[7].toDouble(),
        positionalBias(m.pairs,
                       displacement(m.ids, static_cast<std::size_t>(m.selectedToken), audio[a])));
  }
  // Without audio the view says what it needs.
  try {
    exportFigure(fixedScene(), "sound", dir.filePath(QStringLiteral("x.png")).toStdString(), o);
    ADD_FAILURE() << "exported a sound figure without audio";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a<N>"), std::string::npos) << e.what();
  }
}

// A user's-eye report: the distance overlay's colour bar read "3.59e+" and "3.46e+" for 3464 to
// 3592 (three digits written with an exponent, cut at the canvas's edge). The labels are whole
// numbers, and nothing is drawn past the canvas: a wider image around the same canvas stays
// blank right of it.
TEST(SoundView, TheOverlaysColourBarLabelsStayOnTheCanvas) {
  SoundPicture pic;
  pic.duration = 2.0;
  pic.spans = {{0.0, 1.0}, {1.0, 2.0}};
  pic.overlay = {3464.0, 3592.0};
  pic.overlayMin = 3464.0;
  pic.overlayMax = 3592.0;
  pic.overlayName = QStringLiteral("distance");
  EXPECT_EQ(colorTickLabels(ColorScale::linear(3464.0, 3592.0).ticks(2), 4),
            (QStringList{QStringLiteral("3464"), QStringLiteral("3592")}));
  for (const bool dark : {false, true}) {
    pic.dark = dark;
    const QRectF canvas(0, 0, 420, 160);
    QImage image(620, 160, QImage::Format_ARGB32);
    const QRgb sentinel = qRgb(255, 0, 255);
    image.fill(sentinel);
    {
      QPainter p(&image);
      p.setClipping(false);
      paintWaveform(p, canvas, pic);
    }
    int outside = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = static_cast<int>(canvas.right()) + 1; x < image.width(); ++x)
        outside += image.pixel(x, y) != sentinel;
    EXPECT_EQ(outside, 0) << (dark ? "dark" : "light");
  }
}

// A user's-eye report: with no audio in the layout the plot read "silence: a plain a<N> has no
// sound..." under "No audio in the layout", about an a<N> that is not there, and the
// spectrogram's note about a segment. Without spans the plots' top-left stays empty; with the
// spans of a plain a<N> the notes are there.
TEST(SoundView, NoAudioDrawsNoNoteAboutAPlainRun) {
  const QRectF canvas(0, 0, 420, 160);
  const auto inkAtTopLeft = [&](const SoundPicture& pic, bool spectrogram) {
    QImage image(canvas.size().toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
      QPainter p(&image);
      if (spectrogram)
        paintSpectrogram(p, canvas, pic);
      else
        paintWaveform(p, canvas, pic);
    }
    const QRectF plot = soundPlotRect(canvas);
    const QRgb background =
        image.pixel(static_cast<int>(plot.left()) + 3, static_cast<int>(plot.top()) + 30);
    int ink = 0;
    for (int y = static_cast<int>(plot.top()) + 4; y < plot.top() + 22; ++y)
      for (int x = static_cast<int>(plot.left()) + 6; x < plot.left() + 200; ++x)
        ink += image.pixel(x, y) != background;
    return ink;
  };
  SoundPicture none;
  none.duration = 1.0;
  SoundPicture plain = none;
  plain.spans = {{0.0, 1.0}};                     // one span: one shade under the note
  for (const bool spectrogram : {false, true}) {  // "no spectrogram: the segment has no sound"
    EXPECT_EQ(inkAtTopLeft(none, spectrogram), 0) << spectrogram;
    EXPECT_GT(inkAtTopLeft(plain, spectrogram), 0) << spectrogram;
  }
}
