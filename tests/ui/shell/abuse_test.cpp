// The abuse test: thousands of seeded random user events on a real main window — parameters at
// extreme and invalid values through the real widgets, segments added, removed and reordered,
// bad and truncated scene files and pictures, window resizes, view switches, menu actions,
// attention runs started and cancelled, chart bars, curves, legends and axes hovered and
// clicked with real mouse events. Afterwards the app must answer at once, its views must
// hold what a fresh computation of the final scene gives, and peak memory must stay bounded.
// ROPESCOPE_ABUSE_SEED and ROPESCOPE_ABUSE_EVENTS override the seed and the event count.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <QAbstractSpinBox>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <random>

#include "attention/attention_view.h"
#include "attention_settled.h"
#include "chart_items.h"
#include "charts/charts_panel.h"
#include "charts/compare_view.h"
#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "picture/picture_importer.h"
#include "picture/picture_view.h"
#include "platform/memory_release.h"
#include "ropescope/attention.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "shell/main_window.h"
#include "space/scene_space_view.h"
#include "style/metric_text.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// AddressSanitizer builds run everything several times slower (-O1, checked accesses, one
// attention tile of a huge layout takes seconds), and their RSS includes the shadow memory and
// the quarantine of freed blocks, which is never handed back: time and memory bounds scale.
// A run long enough to be caught mid-way in either build (clang's ASan build took this one, the
// release layout, all along: clang does not define __SANITIZE_ADDRESS__, see ROPESCOPE_ASAN).
constexpr const char* kHugeAttentionLayout = "t150000";
#if defined(ROPESCOPE_ASAN)
constexpr long kAfterLimitKiB = 2048L * 1024;
constexpr long kPeakLimitKiB = 4096L * 1024;
// ASan's quarantine alone holds 256 MB of freed blocks and its allocator keeps its own caches
// (measured: 493 MiB kept here); the release bound is the one that says memory comes back.
constexpr long kKeptLimitKiB = 1024L * 1024;
#else
constexpr long kAfterLimitKiB = 1024L * 1024;
constexpr long kPeakLimitKiB = 2560L * 1024;
// What stays resident after the huge compare scene is left varies from run to run with how the
// worker threads' heaps were laid out: measured 129 and 155 MiB at 2cb2dca, 149-161 MiB at
// 1573da6, and 152-158 MiB since each thread keeps its bias panels (up to 8 MiB a thread); the
// bug this bound is for kept 1.3 GiB.
constexpr long kKeptLimitKiB = 200L * 1024;
#endif

std::uint64_t envNumber(const char* name, std::uint64_t fallback) {
  bool ok = false;
  const qulonglong v = qEnvironmentVariable(name).toULongLong(&ok);
  return ok ? v : fallback;
}

// Resident memory now (not the peak), from /proc/self/statm.
long currentRssKiB() {
  QFile f(QStringLiteral("/proc/self/statm"));
  if (!f.open(QIODevice::ReadOnly)) return -1;
  const QList<QByteArray> fields = f.readAll().split(' ');
  return fields.size() > 1 ? fields[1].toLong() * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

long peakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Answers every modal dialog the events open (warnings, unsaved-changes prompts, file
// dialogs) the way a user backing out would: Escape / Cancel.
class ModalCloser : public QObject {
 public:
  ModalCloser() {
    timer_.setInterval(20);
    connect(&timer_, &QTimer::timeout, this, [this] {
      QWidget* m = QApplication::activeModalWidget();
      if (!m) return;
      ++closed;
      ++titles[m->windowTitle().toStdString()];
      if (auto* box = qobject_cast<QMessageBox*>(m)) {
        QAbstractButton* b = box->escapeButton();
        if (!b && !box->buttons().isEmpty()) b = box->buttons().first();
        if (b) {
          b->click();
          return;
        }
      }
      if (auto* d = qobject_cast<QDialog*>(m)) {
        d->reject();
        return;
      }
      m->close();
    });
    timer_.start();
  }
  int closed = 0;
  std::map<std::string, int> titles;  // which dialogs came, to see that only expected ones do

 private:
  QTimer timer_;
};

class Abuser {
 public:
  Abuser(MainWindow& w, std::uint64_t seed, const QString& dir) : w_(w), rng_(seed), dir_(dir) {
    makeFixtures();
  }

  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  template <typename T>
  T pick(const std::vector<T>& v) {
    return v[std::size_t(between(0, int(v.size()) - 1))];
  }

  // One random event; returns its kind (for the tally).
  std::string step() {
    // A huge scene (from a typed layout or a grid spin box at its maximum) is visited, not
    // lived in: the user soon types a normal layout again. (Each edit of a 250k-token scene
    // costs seconds of software rendering, four times over in compare mode.)
    if (w_.model()->validScene().layout.tokenCount() > 20000 && chance(0.6)) {
      if (auto* spec = w_.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"))) {
        spec->setFocus();
        spec->setText(randomSpec());
        QTest::keyClick(spec, Qt::Key_Return);
        ++hugeLeft;
        return "leave huge";
      }
    }
    struct Kind {
      const char* name;
      int weight;
      std::function<void()> run;
    };
    const std::vector<Kind> kinds = {
        {"spin", 30, [this] { spinEvent(); }},
        {"line", 12, [this] { lineEvent(); }},
        {"combo", 14, [this] { comboEvent(); }},
        {"check/slider", 6, [this] { toggleEvent(); }},
        {"segment", 14, [this] { segmentEvent(); }},
        {"file", 5, [this] { fileEvent(); }},
        {"picture", 4, [this] { pictureEvent(); }},
        {"resize", 3, [this] { resizeEvent(); }},
        {"view", 8, [this] { viewEvent(); }},
        {"menu", 3, [this] { menuEvent(); }},
        {"attention", 6, [this] { attentionEvent(); }},
        {"mouse", 4, [this] { mouseEvent(); }},
        {"chart", 5, [this] { chartEvent(); }},
    };
    int total = 0;
    for (const Kind& k : kinds) total += k.weight;
    int r = between(0, total - 1);
    for (const Kind& k : kinds) {
      if (r < k.weight) {
        k.run();
        return k.name;
      }
      r -= k.weight;
    }
    return {};
  }

  int hugeLayouts = 0;
  int hugeLeft = 0;

 private:
  template <typename T>
  std::vector<T*> live() {
    std::vector<T*> out;
    for (T* x : w_.findChildren<T*>())
      if (x->isVisible() && x->isEnabled()) out.push_back(x);
    return out;
  }

  void spinEvent() {
    // Spin boxes of the panel, the segment table, the attention dock, the picture view.
    const auto spins = live<QAbstractSpinBox>();
    if (spins.empty()) return;
    QAbstractSpinBox* s = pick(spins);
    if (chance(0.5)) {
      // Typed, as a user would: select all, type, Enter (invalid characters are refused by
      // the validator, out-of-range numbers clamp or stay unaccepted).
      static const std::vector<QString> texts = {"0",          "-1",          "1e308",
                                                 "nan",        "inf",         "-inf",
                                                 "2147483647", "-2147483648", "99999999999999",
                                                 "",           "1,5",         "--3",
                                                 "0.000001",   "12",          "3.5",
                                                 "7"};
      s->setFocus();
      QTest::keyClick(s, Qt::Key_A, Qt::ControlModifier);
      QTest::keyClicks(s, pick(texts));
      QTest::keyClick(s, Qt::Key_Return);
      return;
    }
    if (auto* i = qobject_cast<QSpinBox*>(s)) {
      const int lo = i->minimum(), hi = i->maximum();
      const int v = pick(std::vector<int>{lo, hi, lo + 1, hi - 1, 0, 1,
                                          between(lo, std::min(hi, lo + 64)), between(lo, hi)});
      i->setValue(std::clamp(v, lo, hi));
    } else if (auto* d = qobject_cast<QDoubleSpinBox*>(s)) {
      const double lo = d->minimum(), hi = d->maximum();
      const double v =
          pick(std::vector<double>{lo, hi, 0.0, 1.0, -1.0, 1e-9,
                                   lo + (hi - lo) * std::uniform_real_distribution<>(0, 1)(rng_)});
      d->setValue(std::clamp(v, lo, hi));
    } else {
      s->stepBy(between(-1000, 1000));
    }
  }

  QString randomSpec() {
    QStringList parts;
    const int n = between(1, 8);
    for (int k = 0; k < n; ++k) {
      switch (between(0, 2)) {
        case 0:
          parts << QStringLiteral("t%1").arg(between(1, 60));
          break;
        case 1:
          parts << QStringLiteral("i%1x%2").arg(between(1, 24)).arg(between(1, 24));
          break;
        default:
          parts << QStringLiteral("v%1x%2x%3")
                       .arg(between(1, 6))
                       .arg(between(1, 10))
                       .arg(between(1, 10));
      }
    }
    return parts.join(QLatin1Char(','));
  }

  void lineEvent() {
    std::vector<QLineEdit*> edits;
    for (QLineEdit* e : live<QLineEdit>())
      if (!qobject_cast<QAbstractSpinBox*>(e->parentWidget()) &&
          !qobject_cast<QComboBox*>(e->parentWidget()) && !e->isReadOnly())
        edits.push_back(e);
    if (edits.empty()) return;
    QLineEdit* e = pick(edits);
    QString text;
    const int r = between(0, 20);
    if (r < 9) {
      text = e->objectName() == QLatin1String("layoutSpec") ? randomSpec()
                                                            : QStringLiteral("%1,%2,%3")
                                                                  .arg(between(-5, 40))
                                                                  .arg(between(0, 40))
                                                                  .arg(between(0, 40));
    } else if (r < 11) {
      // Huge but within the limits, and just past them.
      text = pick(std::vector<QString>{"t262144", "t262145", "i512x512", "i513x512", "v64x64x64",
                                       "t1000,i500x500", "t20000,i100x100,t20000",
                                       "t1000,v1000x32x32,t1000"});  // long context: 1M tokens
      ++hugeLayouts;
    } else if (r == 11 && chance(0.15)) {
      text = QStringLiteral("t131072,i362x362");  // both halves huge: seconds of PTD
      ++hugeLayouts;
    } else {
      text = pick(std::vector<QString>{"",
                                       ",",
                                       ",,,",
                                       "t",
                                       "x",
                                       "t0",
                                       "i0x5",
                                       "t-3",
                                       "t1e9",
                                       "t99999999999999999999",
                                       "img:/no/such/picture.png",
                                       "img:" + dir_ + "/garbage.png",
                                       "vid:" + dir_,
                                       "vid:/nonexistent",
                                       "i3x3,,t2",
                                       "t5,i3x3,t2",
                                       QString(5000, QLatin1Char('A')),
                                       QString::fromUtf8("t5,\xc3\xa9\xe2\x80\x94"),
                                       "nan",
                                       "-1,-1,-1",
                                       "1e308,1e308,1e308",
                                       "2147483647",
                                       "64,32,32",
                                       "0,0,0",
                                       "t3;rm -rf",
                                       "\t\n"});
    }
    e->setFocus();
    e->setText(text);
    QTest::keyClick(e, Qt::Key_Return);
    if (chance(0.3)) e->clearFocus();  // editingFinished by focus loss too
  }

  void comboEvent() {
    const auto combos = live<QComboBox>();
    if (combos.empty()) return;
    QComboBox* c = pick(combos);
    if (c->count() == 0) return;
    c->setCurrentIndex(between(0, c->count() - 1));
  }

  void toggleEvent() {
    if (chance(0.5)) {
      const auto boxes = live<QCheckBox>();
      if (!boxes.empty()) pick(boxes)->click();
      return;
    }
    const auto sliders = live<QSlider>();
    if (sliders.empty()) return;
    QSlider* s = pick(sliders);
    s->setValue(
        pick(std::vector<int>{s->minimum(), s->maximum(), between(s->minimum(), s->maximum())}));
  }

  void segmentEvent() {
    SegmentListEditor* seg = w_.panel()->segmentEditor();
    auto* table = seg->findChild<QTableWidget*>(QStringLiteral("segments"));
    if (table && table->rowCount() > 0 && chance(0.7))
      table->selectRow(between(0, table->rowCount() - 1));
    std::vector<QToolButton*> buttons;
    for (QToolButton* b : seg->findChildren<QToolButton*>())
      if (b->isEnabled()) buttons.push_back(b);
    if (buttons.empty()) return;
    QToolButton* b = pick(buttons);
    const int times = chance(0.1) ? between(5, 40) : 1;  // bursts: many segments at once
    for (int k = 0; k < times; ++k) b->click();
  }

  void fileEvent() {
    const Scene before = w_.model()->scene();
    const QString path = pick(badScenes_);
    if (chance(0.15)) {
      EXPECT_TRUE(w_.openFile(goodScene_));
      return;
    }
    if (chance(0.1)) {
      // Saving, to a good place and to one that cannot be written (a message box).
      w_.saveTo(chance(0.5) ? dir_ + QStringLiteral("/saved.json")
                            : dir_ + QStringLiteral("/no/such/folder/x.json"));
      return;
    }
    const bool opened = w_.openFile(path);
    if (!opened) {
      ++refusedFiles;
      // A refused file keeps the user's work.
      EXPECT_TRUE(w_.model()->scene() == before) << "after " << path.toStdString();
    }
  }

  void pictureEvent() {
    PictureImporter* imp = w_.importer();
    const Scene before = w_.model()->scene();
    const int r = between(0, 9);
    int added = 0;
    if (r < 5) {
      added = imp->addImages({pick(badPictures_)});
      EXPECT_EQ(added, 0);
      EXPECT_FALSE(imp->message().isEmpty());
      EXPECT_TRUE(w_.model()->scene() == before);
    } else if (r < 7) {
      added = imp->addVideo({dir_});  // a folder of garbage "frames"
      EXPECT_EQ(added, 0);
    } else if (r < 9 && w_.model()->scene().layout.segments.size() < 40) {
      imp->addImages({pick(goodPictures_)});
    } else {
      imp->addDropped({pick(badPictures_), pick(goodPictures_)});
    }
  }

  void resizeEvent() {
    w_.resize(pick(std::vector<int>{1, 50, 200, 640, 1024, between(1, 2400), 2400}),
              pick(std::vector<int>{1, 40, 300, 700, between(1, 1800), 1800}));
    if (chance(0.1)) w_.showMinimized();
    if (chance(0.2)) w_.showNormal();
    if (chance(0.05)) w_.showMaximized();
  }

  void viewEvent() {
    switch (between(0, 6)) {
      case 0:
        w_.setCompareMode(!w_.compareMode());
        break;
      case 1:
        w_.showPictureTab(chance(0.5));
        break;
      case 2:
        w_.setDarkPalette(chance(0.5));
        break;
      case 3:
        w_.applyPreset(pick(std::vector<CameraPreset>{
            CameraPreset::Default, CameraPreset::DownTextAxis, CameraPreset::SideOn}));
        break;
      case 4:
        w_.attentionDock()->setVisible(!w_.attentionDock()->isVisible());
        break;
      case 5: {
        auto* tabs = w_.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
        if (tabs) tabs->setCurrentIndex(between(0, tabs->count() - 1));
        break;
      }
      default:
        w_.model()->setSelectedVisual(between(-5, 5000));
    }
  }

  void menuEvent() {
    std::vector<QAction*> actions;
    for (QAction* a : w_.menuBar()->actions())
      if (a->menu())
        for (QAction* b : a->menu()->actions())
          if (!b->isSeparator() && !b->menu() && b->isEnabled() &&
              !b->text().contains(QStringLiteral("Quit")))
            actions.push_back(b);
    if (!actions.empty()) pick(actions)->trigger();  // dialogs are answered by ModalCloser
  }

  void attentionEvent() {
    AttentionView* v = w_.attentionView();
    switch (between(0, 9)) {
      case 0:
        v->setHead(between(-3, 6));
        break;
      case 1:
        v->setRandomQk(between(1, 4), quint64(between(0, 1 << 30)));
        break;
      case 2:
        v->setIdenticalQk(between(1, 3));
        break;
      case 3:
        v->setSoftmax(chance(0.5));
        break;
      case 4:
        v->setCausal(chance(0.5));
        break;
      case 5:
        v->cancel();
        break;
      case 6:
        v->setZoom(std::size_t(between(0, 3000)), std::size_t(between(0, 3000)));
        break;
      case 7:
        v->resetZoom();
        break;
      case 8:
        v->setQkFiles(dir_ + QStringLiteral("/garbage.npy"), dir_ + QStringLiteral("/empty.json"));
        break;
      default:
        v->setBackendChoice(chance(0.5) ? BackendChoice::Cpu : BackendChoice::Auto);
    }
  }

  void mouseEvent() {
    QWidget* target = w_.compareMode() ? static_cast<QWidget*>(w_.compareView())
                                       : static_cast<QWidget*>(w_.spaceView());
    if (!target->isVisible() || target->width() < 4 || target->height() < 4) return;
    const QPointF a(between(0, target->width() - 1), between(0, target->height() - 1));
    const QPointF b(between(0, target->width() - 1), between(0, target->height() - 1));
    if (chance(0.6))
      drag(target, a, b, 4);
    else
      QTest::mouseClick(target, Qt::LeftButton, {}, a.toPoint());
  }

  // A real hover and click on a chart of the Charts tab: a bar (a click switches the design:
  // a crash was found there), a point of a curve, a legend marker or an axis.
  void chartEvent() {
    if (chance(0.3)) w_.showSideTab(QStringLiteral("charts"));
    std::vector<QChartView*> views;
    for (QChartView* v : w_.charts()->findChildren<QChartView*>())
      if (v->isVisible() && v->width() > 4 && v->height() > 4) views.push_back(v);
    if (views.empty()) return;
    QChartView* view = pick(views);
    std::vector<ChartSpot> spots;
    switch (between(0, 2)) {
      case 0:
        spots = barSpots(view);
        break;
      case 1:
        spots = pointSpots(view);
        break;
      default:
        spots = legendAndAxisSpots(view);
    }
    if (spots.empty()) return;
    hoverAndClick(view->viewport(), pick(spots).pos);
  }

  void write(const QString& name, const QByteArray& bytes) {
    QFile f(dir_ + QLatin1Char('/') + name);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
  }

  void makeFixtures() {
    QByteArray garbage(4096, '\0');
    for (char& c : garbage) c = char(between(0, 255));
    const std::string good = sceneToJson(fixedScene());
    write(QStringLiteral("garbage.json"), garbage);
    write(QStringLiteral("truncated.json"),
          QByteArray::fromStdString(good.substr(0, good.size() / 2)));
    write(QStringLiteral("empty.json"), {});
    write(QStringLiteral("types.json"),
          R"({"format":"ropescope-scene","version":1,"layout":5,"design":[]})");
    write(QStringLiteral("values.json"),
          R"({"format":"ropescope-scene","version":1,"layout":"t5,i3x3","design":"circle",)"
          R"("design_params":{"alpha":1e308},"frequency":{"head_dim":-4}})");
    write(QStringLiteral("huge.json"), QByteArray(17 << 20, ' ') + "{}");
    write(QStringLiteral("missing_picture.json"),
          R"({"format":"ropescope-scene","version":1,"layout":"t2,img:missing.png,t3"})");
    write(QStringLiteral("garbage.png"), garbage);
    write(QStringLiteral("garbage.npy"), garbage);
    QFile castle(QStringLiteral(ROPESCOPE_SAMPLES "/castle.png"));
    ASSERT_TRUE(castle.open(QIODevice::ReadOnly));
    const QByteArray png = castle.readAll();
    write(QStringLiteral("truncated.png"), png.left(png.size() / 3));
    write(QStringLiteral("header_only.png"), png.left(40));
    write(QStringLiteral("text.jpg"), "not a picture at all\n");
    write(QStringLiteral("zero.png"), {});
    QDir(dir_).mkpath(QStringLiteral("folder.json"));
    goodScene_ = dir_ + QStringLiteral("/good.json");
    saveSceneFile(fixedScene(), goodScene_.toStdString());
    for (const char* f :
         {"garbage.json", "truncated.json", "empty.json", "types.json", "values.json", "huge.json",
          "folder.json", "no-such-file.json", "missing_picture.json", "garbage.png"})
      badScenes_.push_back(dir_ + QLatin1Char('/') + QLatin1String(f));
    for (const char* f :
         {"garbage.png", "truncated.png", "header_only.png", "text.jpg", "zero.png", "no-such.png"})
      badPictures_.push_back(dir_ + QLatin1Char('/') + QLatin1String(f));
    for (const char* f : {"castle.png", "checker.png", "castle.jpg"})
      goodPictures_.push_back(QStringLiteral(ROPESCOPE_SAMPLES "/") + QLatin1String(f));
  }

 public:
  int refusedFiles = 0;

 private:
  MainWindow& w_;
  std::mt19937_64 rng_;
  QString dir_;
  QString goodScene_;
  std::vector<QString> badScenes_, badPictures_, goodPictures_;
};

// The 3-D view shows the model's last valid scene, or sits hidden (compare mode's page) and
// owes the change until it is shown (model/when_shown.h). A shown view never owes.
// Waits until nothing the window scheduled is left: the metrics, the design comparison, the
// compare views (when shown) and a memory release. A resident-size reading then sees what stays.
bool settled(MainWindow& w) {
  return waitUntil([&] {
    return !w.model()->computing() && !w.model()->summariesPending() &&
           (!w.compareMode() || w.compareView()->settled()) && !w.memoryRelease()->pending();
  });
}

bool spaceViewOwes(MainWindow& w) {
  const auto* view = qobject_cast<SceneSpaceView*>(w.spaceView());
  const bool owes = view && view->dirty();
  EXPECT_FALSE(owes && w.spaceView()->isVisible()) << "a shown 3-D view is never dirty";
  return owes;
}

// What the views show against a fresh computation of the model's final scene.
void expectViewsMatchAFreshComputation(MainWindow& w) {
  SceneModel* m = w.model();
  if (spaceViewOwes(w)) {
    w.setCompareMode(false);  // shown, it catches up at once
    EXPECT_FALSE(spaceViewOwes(w)) << "the 3-D view caught up when shown";
  }
  const Scene& valid = m->validScene();
  EXPECT_NO_THROW(validateScene(valid));
  const SceneMetrics fresh = computeSceneMetrics(valid);
  // The model's metrics and the 3-D view's ids.
  // Equal, or both undefined (NaN: no text or no visual token), never one without the other.
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  EXPECT_PRED2(same, m->metrics().ptd.ptd, fresh.ptd.ptd);
  EXPECT_PRED2(same, m->metrics().bias.spread, fresh.bias.spread);
  const PositionIds& shown = w.spaceView()->ids();
  ASSERT_EQ(shown.size(), fresh.ids.size());
  ASSERT_EQ(shown.size(), valid.layout.tokenCount());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < shown.size(); ++i) differ += shown.ids[i] != fresh.ids.ids[i];
  EXPECT_EQ(differ, 0u) << "3-D view ids differ from a fresh computation";
  // The status bar's numbers.
  const QString status = w.statusText();
  EXPECT_TRUE(status.contains(QStringLiteral("PTD %1").arg(metricText(fresh.ptd.ptd))))
      << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("bias spread %1").arg(metricText(fresh.bias.spread))))
      << status.toStdString();
  // Audio tokens are counted apart ("+ 40 audio"): neither text nor visual.
  const std::size_t audio = valid.layout.audioCount();
  const QString counts = QStringLiteral("%1 text + %2 visual%3 tokens")
                             .arg(fresh.ptd.nText)
                             .arg(fresh.ptd.nVisual)
                             .arg(audio ? QStringLiteral(" + %1 audio").arg(audio) : QString());
  EXPECT_TRUE(status.contains(counts)) << status.toStdString();
  // The charts: the profile of the selected text token to every visual token.
  EXPECT_EQ(w.charts()->profilePointCount(), int(fresh.selectedDistance.size()));
  // Staleness is shown exactly when the edited scene is invalid; a valid scene shows no error.
  EXPECT_EQ(w.spaceView()->isStale(), m->isStale());
  EXPECT_EQ(w.charts()->showsStaleBanner(), m->isStale());
  if (!m->isStale()) {
    EXPECT_TRUE(w.model()->scene() == valid);
    for (const char* field : {"", "layout", "design", "base", "head_dim", "sections", "alpha"})
      EXPECT_TRUE(w.panel()->errorFor(QLatin1String(field)).isEmpty())
          << field << ": " << w.panel()->errorFor(QLatin1String(field)).toStdString();
  }
}

TEST(Abuse, ThousandsOfRandomEventsLeaveAResponsiveCorrectApp) {
  const std::uint64_t seed = envNumber("ROPESCOPE_ABUSE_SEED", std::random_device{}());
  const int events = int(envNumber("ROPESCOPE_ABUSE_EVENTS", 1000));
  std::printf("[ abuse ] ROPESCOPE_ABUSE_SEED=%llu ROPESCOPE_ABUSE_EVENTS=%d\n",
              static_cast<unsigned long long>(seed), events);
  std::fflush(stdout);
  QTemporaryDir dir;
  QElapsedTimer clock;
  clock.start();
  ModalCloser closer;
  MainWindow w;
  w.startWith(fixedScene());
  w.resize(1400, 950);
  showAndSettle(&w);
  Abuser abuser(w, seed, dir.path());
  std::map<std::string, int> tally;
  std::map<std::string, long> tallyMs;
  long processMs = 0;
  long worstEventMs = 0;
  std::string worstEvent;
  std::mt19937 burstRng{static_cast<unsigned>(seed)};
  const bool trace = qEnvironmentVariableIsSet("ROPESCOPE_ABUSE_TRACE");  // one line per event
  for (int k = 0; k < events;) {
    // A burst of events (a fast user, key repeat, a script) and then the event loop: paints
    // and queued work coalesce as they do for a real user.
    const int burst = std::min(events - k, std::uniform_int_distribution<int>(1, 12)(burstRng));
    for (int b = 0; b < burst; ++b, ++k) {
      QElapsedTimer one;
      one.start();
      const std::string kind = abuser.step();
      if (trace)
        std::printf("[ trace ] #%d %s: %zu tokens, %s, %dx%d, %.1f s, rss %ld MiB, peak %ld MiB\n",
                    k, kind.c_str(), w.model()->validScene().layout.tokenCount(),
                    w.compareMode() ? "compare" : "3-D", w.width(), w.height(),
                    clock.elapsed() / 1000.0, currentRssKiB() / 1024, peakRssKiB() / 1024),
            std::printf("[ trace ]   %s d=%d attention %s\n",
                        formatLayoutSpec(w.model()->validScene().layout).substr(0, 200).c_str(),
                        w.model()->validScene().frequency.rotary.headDim,
                        w.attentionDock()->isVisible() ? "shown" : "hidden"),
            std::fflush(stdout);
      ++tally[kind];
      tallyMs[kind] += one.elapsed();
      if (one.elapsed() > worstEventMs) {
        worstEventMs = one.elapsed();
        worstEvent = kind + " #" + std::to_string(k);
      }
      if (::testing::Test::HasFatalFailure()) return;
      if (k % 500 == 499) {
        std::printf("[ abuse ] %d events, %.1f s, peak RSS %.0f MiB\n", k + 1,
                    clock.elapsed() / 1000.0, peakRssKiB() / 1024.0);
        std::fflush(stdout);
      }
    }
    QElapsedTimer process;
    process.start();
    QCoreApplication::processEvents();
    if (k % 10 == 0) QTest::qWait(1);  // timers (debounced summaries, paints) get their turn
    processMs += process.elapsed();
    // Cheap invariants after every burst: the 3-D view shows the last valid scene, marked
    // stale exactly when the edited one is invalid, and a valid scene shows no field error.
    const SceneModel* m = w.model();
    if (!spaceViewOwes(w)) {
      ASSERT_EQ(w.spaceView()->ids().size(), m->validScene().layout.tokenCount()) << "event " << k;
      ASSERT_EQ(w.spaceView()->isStale(), m->isStale()) << "event " << k;
    }
    if (!m->isStale()) {
      for (const char* field : {"", "layout", "base", "head_dim", "sections"})
        ASSERT_TRUE(w.panel()->errorFor(QLatin1String(field)).isEmpty())
            << "event " << k << ", field \"" << field
            << "\": " << w.panel()->errorFor(QLatin1String(field)).toStdString();
    }
  }
  const double seconds = clock.elapsed() / 1000.0;

  // Responsive: a zero-delay timer fires (the event loop answers; how soon is printed, not
  // judged: a loaded machine is slower) and a repaint goes through.
  w.showNormal();
  w.resize(1400, 950);
  QElapsedTimer answer;
  answer.start();
  bool fired = false;
  QTimer::singleShot(0, [&fired] { fired = true; });
  ASSERT_TRUE(waitUntil([&] { return fired; })) << "the event loop did not answer";
  const long answerMs = answer.elapsed();
  w.repaint();

  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs)) << "the last edit's metrics did not arrive";
  w.model()->flushSummaries();
  expectViewsMatchAFreshComputation(w);
  // Compare mode shows one PTD per compared design, from the same final scene.
  w.setCompareMode(true);
  QCoreApplication::processEvents();
  EXPECT_EQ(int(w.compareView()->ptds().size()), w.compareView()->viewCount());
  w.setCompareMode(false);

  // The attention preview of the final scene (when it is small enough to wait for) is what a
  // fresh CPU computation gives.
  AttentionView* v = w.attentionView();
  const std::size_t n = w.model()->validScene().layout.tokenCount();
  if (n <= 4096) {
    w.attentionDock()->show();
    v->setBackendChoice(BackendChoice::Cpu);
    v->setIdenticalQk(1);
    v->resetZoom();
    const bool done = attentionSettled(v);
    EXPECT_TRUE(done) << "the attention preview did not finish";
    if (done && v->shownResult()->error.isEmpty() && !v->shownResult()->request.exactRows) {
      const AttentionResult* r = v->shownResult();
      EXPECT_TRUE(r->request.scene.layout == w.model()->validScene().layout);
      auto cpu = makeCpuAttentionBackend(1);
      cpu->load(makeAttentionProblem(r->request.scene, r->request.source, r->request.causal));
      std::vector<float> want(r->blocksPerSide * r->blocksPerSide);
      cpu->pooled(r->request.head, r->request.block, r->request.value, want.data());
      ASSERT_EQ(r->pooled.size(), want.size());
      double worst = 0;
      for (std::size_t i = 0; i < want.size(); ++i)
        if (std::isfinite(want[i]))
          worst = std::max(worst, std::abs(double(r->pooled[i]) - want[i]) /
                                      std::max(1.0, std::abs(double(want[i]))));
        else
          EXPECT_EQ(r->pooled[i], want[i]);
      EXPECT_LT(worst, 1e-6);
    }
  }

  const long peak = peakRssKiB();
  // Back on a small scene, the memory comes back: nothing grows with the number of events.
  w.attentionDock()->hide();
  w.setCompareMode(false);
  w.startWith(fixedScene());
  ASSERT_TRUE(settled(w));
  const long after = currentRssKiB();
  std::printf(
      "[ abuse ] seed %llu: %d events in %.1f s (%d dialogs answered, %d files refused, %d huge "
      "layouts typed, %d huge scenes left); slowest event %ld ms (%s); answered in %ld ms; peak "
      "RSS %.0f MiB, %.0f MiB back on a small scene\n",
      static_cast<unsigned long long>(seed), events, seconds, closer.closed, abuser.refusedFiles,
      abuser.hugeLayouts, abuser.hugeLeft, worstEventMs, worstEvent.c_str(), answerMs,
      peak / 1024.0, after / 1024.0);
  for (const auto& [kind, count] : tally)
    std::printf("[ abuse ]   %-12s %5d events, %6ld ms\n", kind.c_str(), count, tallyMs[kind]);
  std::printf("[ abuse ]   processing events between them: %ld ms\n", processMs);
  for (const auto& [title, count] : closer.titles)
    std::printf("[ abuse ]   dialog \"%s\" answered %d times\n", title.c_str(), count);
  // A 251k-token scene with 1000 text tokens (t1000,i500x500) costs about 1 GiB for a moment in
  // the bias spread (core; `ropescope bias` on it peaks at 1.06 GB) and more in compare mode.
  EXPECT_LT(peak, kPeakLimitKiB) << "peak RSS above the bound (2.5 GiB; 4 GiB under ASan)";
  EXPECT_LT(after, kAfterLimitKiB) << "memory did not come back on a small scene";
  // Leave without an unsaved-changes prompt.
  w.startWith(w.model()->validScene());
}

}  // namespace

namespace {

// Found by the abuse test: a huge layout typed while the attention dock is open starts an
// N x N run that Cancel, newer edits and closing the window all had to wait for (minutes at
// N = 150000). Work now stops at the next tile.
TEST(Abuse, HugeAttentionRunStopsAtOnceOnCancelEditAndClose) {
  Scene huge = fixedScene();
  huge.layout = parseLayoutSpec(kHugeAttentionLayout);
  QElapsedTimer clock;
  {
    auto w = std::make_unique<MainWindow>();
    w->startWith(huge);
    AttentionView* v = w->attentionView();
    v->setBackendChoice(BackendChoice::Cpu);
    showAndSettle(w.get());
    w->attentionDock()->show();
    // The huge run is computing its heatmap (it reported a step of it).
    ASSERT_TRUE(waitUntil([v] { return v->progressPercent() >= 40; }));
    // An edit to a small scene: its result arrives without waiting for the huge one, which the
    // worker drops mid-run (the worker runs one job at a time: the drop comes first).
    const quint64 firstHuge = v->requestedGeneration();
    QSignalSpy dropped(v, &AttentionView::jobDropped);
    clock.start();
    w->model()->setScene(fixedScene());
    ASSERT_TRUE(attentionSettled(v));
    const long editMs = clock.elapsed();
    auto wasDropped = [&](quint64 generation) {
      for (const QList<QVariant>& args : dropped)
        if (args.at(0).toULongLong() == generation) return true;
      return false;
    };
    EXPECT_TRUE(wasDropped(firstHuge)) << "the small scene waited for the huge run";
    // Huge again, then Cancel: the worker is free at once (a small request is served).
    w->model()->setScene(huge);
    ASSERT_TRUE(waitUntil([v] { return v->progressPercent() >= 40; }));
    const quint64 secondHuge = v->requestedGeneration();
    v->cancel();
    w->model()->setScene(fixedScene());
    ASSERT_TRUE(attentionSettled(v));
    EXPECT_TRUE(wasDropped(secondHuge)) << "Cancel did not stop the huge run";
    // Huge again, then close the window mid-run.
    w->model()->setScene(huge);
    ASSERT_TRUE(waitUntil([v] { return v->progressPercent() >= 40; }));
    ASSERT_TRUE(v->busy());
    w->startWith(huge);  // no unsaved-changes prompt
    clock.restart();
    w.reset();
    std::printf("[ abuse ] huge run: edit answered in %ld ms, window closed in %lld ms\n", editMs,
                static_cast<long long>(clock.elapsed()));
  }
  // Closing is not timed (a loaded machine is slower): had it waited for the huge run (minutes
  // of work), ctest's TIMEOUT for this suite would end the test.
}

}  // namespace

namespace {

// Found by the abuse test: t131072,i362x362 is a legal layout whose bias spread takes minutes
// (1.7e10 text x visual pairs), and the window froze while it was computed. It was then refused;
// now it opens like any scene memory allows: computed in the background in stages (ids first),
// the window answering meanwhile, and a layout typed next replaces it at once.
TEST(Abuse, LayoutTooLargeToMeasureOnEachEditLeavesTheWindowFree) {
  MainWindow w;
  w.startWith(fixedScene());
  showAndSettle(&w);
  auto* spec = w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(spec, nullptr);
  spec->setFocus();
  spec->setText(QStringLiteral("t131072,i362x362"));
  bool fired = false;
  QTimer::singleShot(0, &w, [&] { fired = true; });
  QTest::keyClick(spec, Qt::Key_Return);
  // Not computed in the key press: accepted, on the workers, the event loop free.
  EXPECT_FALSE(w.model()->isStale());
  EXPECT_TRUE(w.model()->computing());
  QCoreApplication::processEvents();
  EXPECT_TRUE(fired);
  // Minutes of bias spread (1.7e10 pairs) are still to come whatever the ids took.
  EXPECT_TRUE(w.model()->backgroundBusy());
  // A small layout typed next is the scene at once; the huge one's work is dropped.
  spec->setFocus();
  spec->setText(QStringLiteral("t4,i6x6,t8"));
  QTest::keyClick(spec, Qt::Key_Return);
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  EXPECT_FALSE(w.model()->isStale());
  EXPECT_TRUE(w.model()->validScene().layout == fixedScene().layout);
  EXPECT_FALSE(w.model()->backgroundBusy());
  w.startWith(fixedScene());
}

}  // namespace

namespace {

// Found by the abuse test (seed 3084824468): a 251k-token scene in compare mode, then a small
// scene again, left 1.3 GiB resident: the views kept the huge scene's capacity (copy-assigned
// ids) and glibc kept the freed blocks. Each thread of the bias spread also held 768 MB of
// tables for this scene (the peak grew with the core count); now at most 64 MB.
TEST(AbuseMemory, HugeCompareSceneGivesItsMemoryBack) {
  Scene huge = fixedScene();
  // The picture's 250,000 tokens are what the views and the spread's tables hold; 100 text
  // tokens (not the 1000 the abuse test found it with) keep that memory at a tenth of the
  // spread's text x visual work (docs/dev/testing.md, "Building less").
  huge.layout = parseLayoutSpec("t100,i500x500");
  MainWindow w;
  w.startWith(fixedScene());
  w.resize(2400, 706);
  showAndSettle(&w);
  w.setCompareMode(true);
  w.model()->flushSummaries();
  ASSERT_TRUE(settled(w));
  const long before = currentRssKiB();
  // The huge scene's spread comes with its other metrics (the metrics worker, the window's
  // priority), not from the low-priority worker: this test is of memory, and that worker waits
  // for whatever else the machine runs (526 s under ASan beside the display-free suites).
  w.model()->setIdsFirstPairs(std::numeric_limits<double>::infinity());
  w.model()->setScene(huge);
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  w.model()->flushSummaries();
  // Compare mode computes the four designs of a scene this large in the background: measured
  // once they are shown (an event, not a time; ASan takes seconds for it).
  ASSERT_TRUE(settled(w));
  // The model holds the huge scene; the 3-D view behind compare mode owes it until shown.
  ASSERT_EQ(w.model()->validScene().layout.tokenCount(), huge.layout.tokenCount());
  ASSERT_EQ(w.compareView()->view(0)->ids().size(), huge.layout.tokenCount());
  EXPECT_TRUE(spaceViewOwes(w));
  const long inHuge = currentRssKiB();
  const int releases = w.memoryRelease()->releases();
  w.model()->setScene(fixedScene());
  w.model()->flushSummaries();
  // The release comes a moment after the views let go of the huge scene.
  ASSERT_TRUE(settled(w));
  EXPECT_GT(w.memoryRelease()->releases(), releases);
  const long after = currentRssKiB();
  std::printf(
      "[ abuse ] huge compare scene: %.0f MiB before, %.0f MiB in it, %.0f MiB after; peak %.0f "
      "MiB\n",
      before / 1024.0, inHuge / 1024.0, after / 1024.0, peakRssKiB() / 1024.0);
  // 250,100 tokens in the model, in each of the four compare designs and in each view's copy
  // (measured 235 MiB); since the views draw a lattice of the points (kPointBudget) rather than
  // every one, no longer the 256 MiB this bound once was.
  EXPECT_GT(inHuge - before, 128L * 1024) << "the huge scene should cost memory while shown";
  EXPECT_LT(after - before, kKeptLimitKiB) << "memory kept after the huge scene was left";
  EXPECT_LT(peakRssKiB(), kPeakLimitKiB);
  w.startWith(fixedScene());
}

}  // namespace
