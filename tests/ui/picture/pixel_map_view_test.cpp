// The Picture tab through core's token -> pixel map: hovering token k reports exactly the map's
// rectangle, frames and tile (checked against the map and against the processors' closed
// forms), the attention overlay paints token k's weight inside token k's rectangle (pixels of
// the rendered image), and the exports are `ropescope pixels`'s bytes.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attention/attention_token_map.h"
#include "attention/token_map_canvas.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "picture/picture_canvas.h"
#include "picture/picture_view.h"
#include "platform/file_dialogs.h"
#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/pixel_map.h"
#include "ropescope/tiled_picture.h"
#include "style/viridis.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

const std::string kMapSamples = ROPESCOPE_SAMPLES;

std::string movingGifSpec() {
  return "t4,vid:" + kMapSamples + "/moving.gif,t4";
}

// A Picture tab on its own model, shown at `size`, with the scene's metrics computed.
struct MapTab {
  SceneModel model;
  PictureView view;
  explicit MapTab(const std::string& spec, QSize size = {1500, 1000}) : view(&model) {
    Scene s = fixedScene();
    s.layout = parseLayoutSpec(spec);
    s.design = "mrope";
    s.designParams = {};
    model.setScene(s);
    EXPECT_TRUE(model.waitForMetrics());
    view.resize(size);
    view.show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
    EXPECT_TRUE(waitUntil([this] { return view.shownSegment() >= 0 && view.rows() > 0; }));
  }
  // The core's map of the scene, computed here on its own.
  std::vector<PixelCell> coreMap() const {
    PixelMapSettings settings;
    settings.grid = model.validScene().imageGrid;
    return pixelMap(model.validScene().layout, settings);
  }
  // Moves the pointer onto the middle of the canvas's cell `k` and waits for the status line.
  int hover(int k) {
    PictureCanvas* c = view.canvas();
    const QPoint at = c->cellWidgetRect(k).center().toPoint();
    // The canvas's own hit test first: a failure says so instead of waiting for a hover that
    // cannot come.
    const int under = c->cellAt(at);
    EXPECT_EQ(under, k) << "at " << at.x() << "," << at.y();
    if (under != k) return under;
    QTest::mouseMove(c, at);
    waitUntil([c, k] { return c->hoveredCell() == k; });
    return c->hoveredCell();
  }
};

const PixelCell* cellOfToken(const std::vector<PixelCell>& map, std::size_t token) {
  for (const PixelCell& p : map)
    if (p.token == token) return &p;
  return nullptr;
}

QString mapEdgeText(double v) {
  return QString::number(v, 'g', 8);
}

// The status line names the map's numbers for cell `p`.
void expectStatusNames(const QString& text, const PixelCell& p) {
  EXPECT_FALSE(text.contains(QChar(0xc2)))
      << "a UTF-8 byte read as Latin-1: " << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("token %1 ").arg(p.token))) << text.toStdString();
  const QString rect =
      QStringLiteral("x %1\u2013%2, y %3\u2013%4 of %5 \u00d7 %6 px")
          .arg(mapEdgeText(p.x0), mapEdgeText(p.x1), mapEdgeText(p.y0), mapEdgeText(p.y1))
          .arg(p.width)
          .arg(p.height);
  EXPECT_TRUE(text.contains(rect)) << text.toStdString() << " / " << rect.toStdString();
  if (p.thumbnail) {
    EXPECT_TRUE(text.contains(QStringLiteral("thumbnail"))) << text.toStdString();
  } else if (p.tile >= 0) {
    EXPECT_TRUE(text.contains(QStringLiteral("tile %1").arg(p.tile))) << text.toStdString();
  }
  if (p.lastFrame > p.firstFrame) {
    EXPECT_TRUE(
        text.contains(QStringLiteral("frames %1\u2013%2").arg(p.firstFrame).arg(p.lastFrame)))
        << text.toStdString();
  }
}

void expectSameCell(const PixelCell& got, const PixelCell& want) {
  EXPECT_EQ(got.token, want.token);
  EXPECT_EQ(got.tile, want.tile);
  EXPECT_EQ(got.thumbnail, want.thumbnail);
  EXPECT_EQ(got.x0, want.x0);
  EXPECT_EQ(got.y0, want.y0);
  EXPECT_EQ(got.x1, want.x1);
  EXPECT_EQ(got.y1, want.y1);
  EXPECT_EQ(got.firstFrame, want.firstFrame);
  EXPECT_EQ(got.lastFrame, want.lastFrame);
  EXPECT_EQ(got.width, want.width);
  EXPECT_EQ(got.height, want.height);
}

// Hovers every `stride`-th shown cell (and the last): the canvas reports core's cell of the
// same token, and the status line says its numbers.
void hoverAndCompare(MapTab& tab, int stride) {
  const std::vector<PixelCell> core = tab.coreMap();
  const std::vector<PixelCell>& shown = tab.view.canvas()->cells();
  ASSERT_FALSE(shown.empty());
  for (int k = 0; k < static_cast<int>(shown.size()); k += stride) {
    for (int pass = 0; pass < 2; ++pass) {
      const int cell = pass == 0 ? k : static_cast<int>(shown.size()) - 1;
      ASSERT_EQ(tab.hover(cell), cell) << "cell " << cell;
      const PixelCell* want = cellOfToken(core, shown[static_cast<std::size_t>(cell)].token);
      ASSERT_NE(want, nullptr);
      expectSameCell(shown[static_cast<std::size_t>(cell)], *want);
      expectStatusNames(tab.view.hoverText(), *want);
    }
  }
}

}  // namespace

// Qwen2-VL's video: moving.gif is 112 x 112 px, 8 frames: 4 temporal patches of 4 x 4 tokens,
// one token a 28 px square (no resize), patch t pairs frames 2t and 2t+1.
TEST(PictureMap, HoveringAVideoTokenReportsItsRectangleAndFrames) {
  MapTab tab(movingGifSpec());
  ASSERT_EQ(tab.view.rows(), 4);
  for (int t = 0; t < 4; ++t) {
    tab.view.setUnpickedTemporal(t);
    ASSERT_EQ(tab.view.canvas()->cells().size(), 16u);
    for (int k = 0; k < 16; ++k) {
      ASSERT_EQ(tab.hover(k), k);
      const PixelCell& p = tab.view.canvas()->cells()[static_cast<std::size_t>(k)];
      // The processor's closed form, on its own.
      const int row = k / 4, col = k % 4;
      EXPECT_EQ(p.token, 4u + 16u * t + k);
      EXPECT_EQ(p.x0, 28.0 * col);
      EXPECT_EQ(p.x1, 28.0 * (col + 1));
      EXPECT_EQ(p.y0, 28.0 * row);
      EXPECT_EQ(p.y1, 28.0 * (row + 1));
      EXPECT_EQ(p.firstFrame, 2 * t);
      EXPECT_EQ(p.lastFrame, 2 * t + 1);
      EXPECT_TRUE(tab.view.hoverText().contains(
          QStringLiteral("frames %1\u2013%2").arg(2 * t).arg(2 * t + 1)))
          << tab.view.hoverText().toStdString();
    }
    hoverAndCompare(tab, 5);
  }
  EXPECT_FALSE(tab.view.caption().contains(QChar(0xc2))) << tab.view.caption().toStdString();
  EXPECT_TRUE(tab.view.caption().contains(QStringLiteral("frames 6\u20137")))
      << tab.view.caption().toStdString();
}

// InternVL: 1920 x 1080 is 4 x 2 tiles of 448 px and a thumbnail; tile t's token (r, c) covers
// ((t % 4) * 448 + 28c) * 1920 / 1792 .. and the thumbnail's 28c * 1920 / 448 ...
// A cell on a panel's last row or column ends where the panel ends, up to the rounding of the
// two sums (panel origin + size, cell origin + size): inside within a millionth of a pixel.
namespace {
bool insidePanel(const QRectF& panel, const QRectF& cell) {
  const double e = 1e-6;
  return panel.adjusted(-e, -e, e, e).contains(cell);
}
}  // namespace

TEST(PictureMap, HoveringATiledPicturesTokenReportsItsTileOrThumbnail) {
  MapTab tab("t2,tiled:1920x1080,t4");
  PictureCanvas* c = tab.view.canvas();
  ASSERT_EQ(c->cells().size(), 9u * 256u);
  EXPECT_TRUE(c->tiled());
  EXPECT_FALSE(c->thumbnailPanel().intersects(c->mainPanel()));
  for (int k :
       {0, 17, 255, 256 + 3 * 16 + 5, 7 * 256 + 255, 8 * 256, 8 * 256 + 16 * 9 + 11, 9 * 256 - 1}) {
    ASSERT_EQ(tab.hover(k), k);
    const PixelCell& p = c->cells()[static_cast<std::size_t>(k)];
    const int tile = k / 256, row = k % 256 / 16, col = k % 16;
    EXPECT_EQ(p.token, 2u + static_cast<std::size_t>(k));
    EXPECT_EQ(p.tile, tile);
    if (tile == 8) {
      EXPECT_TRUE(p.thumbnail);
      EXPECT_DOUBLE_EQ(p.x0, 28.0 * col * 1920 / 448);
      EXPECT_DOUBLE_EQ(p.y1, 28.0 * (row + 1) * 1080 / 448);
      EXPECT_TRUE(tab.view.hoverText().contains(QStringLiteral("thumbnail")));
      EXPECT_TRUE(insidePanel(c->thumbnailPanel(), c->cellWidgetRect(k))) << k;
    } else {
      EXPECT_FALSE(p.thumbnail);
      EXPECT_DOUBLE_EQ(p.x0, ((tile % 4) * 448.0 + 28.0 * col) * 1920 / 1792);
      EXPECT_DOUBLE_EQ(p.y0, ((tile / 4) * 448.0 + 28.0 * row) * 1080 / 896);
      EXPECT_TRUE(tab.view.hoverText().contains(QStringLiteral("tile %1").arg(tile)));
      EXPECT_TRUE(insidePanel(c->mainPanel(), c->cellWidgetRect(k))) << k;
    }
  }
  hoverAndCompare(tab, 97);
}

// Odd sizes, an extreme aspect ratio, one tile and many tiles: whatever grid InternVL's rule
// picks (core's internvlTiles), every hovered token is the map's.
TEST(PictureMap, TiledPicturesOfEveryShapeReportTheMapsCells) {
  struct Case {
    const char* spec;
    int width, height, minTiles, maxTiles;
  };
  for (const Case& k : {Case{"t1,tiled:333x777,t1", 333, 777, 1, 12},
                        Case{"t1,tiled:4000x300,t1", 4000, 300, 1, 12},
                        Case{"t1,tiled:448x448,t1", 448, 448, 1, 12},
                        Case{"t1,tiled:4001x2999/1-40,t1", 4001, 2999, 1, 40}}) {
    SCOPED_TRACE(k.spec);
    MapTab tab(k.spec, {1560, 1000});
    TileSettings settings;
    settings.minTiles = k.minTiles;
    settings.maxTiles = k.maxTiles;
    const TileGrid grid = internvlTiles(k.width, k.height, settings);
    ASSERT_EQ(tab.view.canvas()->cells().size(), 256u * grid.tileCount());
    EXPECT_EQ(tab.view.canvas()->tiled(), grid.thumbnail);
    if (std::string(k.spec).find("448x448") != std::string::npos) {
      EXPECT_EQ(grid.tileCount(), 1);  // one tile, no thumbnail
    }
    if (std::string(k.spec).find("1-40") != std::string::npos) {
      EXPECT_GT(grid.tileCount(), 12);  // many tiles
    }
    hoverAndCompare(tab, grid.tileCount() > 12 ? 611 : 131);
  }
}

// The attention overlay: the colour inside token k's rectangle is token k's weight on the
// legend's scale. Rendered twice, with the row and with a flat row (one mid-map colour): the
// picture under both is the same, so the difference is alpha * (colour(w_k) - colour(mid)).
TEST(PictureMap, AttentionOverlayPaintsEachTokensWeightInItsRectangle) {
  for (const std::string& spec : {movingGifSpec(), std::string("t2,tiled:1920x1080,t4")}) {
    SCOPED_TRACE(spec);
    MapTab tab(spec, {1500, 1000});
    const SceneMetrics& m = tab.model.metrics();
    PictureAttention a;
    a.row.resize(m.ids.size());
    for (std::size_t i = 0; i < a.row.size(); ++i)
      a.row[i] = 0.001 + static_cast<double>((i * 37) % 101) / 1000.0;
    a.query = 0;
    a.queryName = QStringLiteral("token 0 (text)");
    a.what = QStringLiteral("softmax");
    a.layout = tab.model.validScene().layout;
    PictureAttention flat = a;
    std::fill(flat.row.begin(), flat.row.end(), 0.05);
    tab.view.setOverlay(PictureOverlay::Attention);
    tab.view.setAttention(flat);
    const QImage base = tab.view.canvas()->render();
    tab.view.setAttention(a);
    PictureCanvas* c = tab.view.canvas();
    ASSERT_TRUE(c->hasValues());
    const QImage painted = c->render();
    const std::vector<PixelCell>& cells = c->cells();
    double lo = 1e300, hi = -1e300;
    for (const PixelCell& p : cells)
      lo = std::min(lo, a.row[p.token]), hi = std::max(hi, a.row[p.token]);
    ASSERT_LT(lo, hi);
    const QColor mid = viridis(0.5);
    int checked = 0, distinct = 0;
    const std::size_t stride = std::max<std::size_t>(1, cells.size() / 60);
    for (std::size_t k = 0; k < cells.size(); k += stride) {
      const double w = a.row[cells[k].token];
      EXPECT_EQ(c->cellValue(static_cast<int>(k)), w);
      const QColor want = viridis((w - lo) / (hi - lo));
      const QRectF r = c->cellWidgetRect(static_cast<int>(k));
      ASSERT_GT(r.width(), 8);
      ASSERT_GT(r.height(), 8);
      // The middle and points 3 px in from the corners (off the token's drawn edges).
      for (QPointF at :
           {r.center(), r.topLeft() + QPointF(3.5, 3.5), r.bottomRight() - QPointF(3.5, 3.5)}) {
        const QPoint px = at.toPoint();
        const QColor got = painted.pixelColor(px), under = base.pixelColor(px);
        const int dr = got.red() - under.red(), dg = got.green() - under.green(),
                  db = got.blue() - under.blue();
        EXPECT_NEAR(dr, 0.55 * (want.red() - mid.red()), 2.5) << k;
        EXPECT_NEAR(dg, 0.55 * (want.green() - mid.green()), 2.5) << k;
        EXPECT_NEAR(db, 0.55 * (want.blue() - mid.blue()), 2.5) << k;
        ++checked;
      }
      distinct += std::abs(want.red() - mid.red()) > 20 ? 1 : 0;
    }
    EXPECT_GT(checked, 20);
    EXPECT_GT(distinct, 3);  // the check could fail: most weights are far from the middle
    // The legend says what the colours are, and for a tiled picture which panel is which.
    EXPECT_TRUE(tab.view.caption().contains(QStringLiteral("softmax of token 0")))
        << tab.view.caption().toStdString();
    // A row of another layout is not painted on this one.
    a.layout = parseLayoutSpec("t3,i2x2");
    tab.view.setAttention(a);
    EXPECT_FALSE(tab.view.canvas()->hasValues());
  }
}

// The exports: the map as `ropescope pixels` writes it (CSV and JSON, byte for byte), the
// overlay as the PNG of what is drawn; a path that cannot be written is refused in one line.
TEST(PictureMap, ExportsAreRopescopePixelsBytesAndTheDrawnOverlay) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  for (const std::string& spec : {movingGifSpec(), std::string("t2,tiled:1920x1080,t4"),
                                  std::string("t2,tiled:333x777,t1")}) {
    SCOPED_TRACE(spec);
    MapTab tab(spec, {900, 700});
    for (const char* format : {"csv", "json"}) {
      const QString path = dir.filePath(QStringLiteral("map.%1").arg(QLatin1String(format)));
      tab.view.exportMap(path);
      QFile f(path);
      ASSERT_TRUE(f.open(QIODevice::ReadOnly));
      const QByteArray ours = f.readAll();
      QProcess cli;
      cli.start(QStringLiteral(ROPESCOPE_BINARY),
                {QStringLiteral("pixels"), QStringLiteral("--layout"), QString::fromStdString(spec),
                 QStringLiteral("--format"), QLatin1String(format)});
      ASSERT_TRUE(cli.waitForFinished(120000));
      ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
      const QByteArray theirs = cli.readAllStandardOutput();
      EXPECT_GT(theirs.size(), 100);
      EXPECT_EQ(ours, theirs) << format;
    }
    const QString png = dir.filePath(QStringLiteral("overlay.png"));
    tab.view.exportOverlay(png);
    const QImage written(png);
    const QImage drawn = tab.view.canvas()->render();
    ASSERT_EQ(written.size(), drawn.size());
    EXPECT_EQ(written.convertToFormat(QImage::Format_RGB32), drawn);
  }
  MapTab tab("t2,tiled:448x448,t1", {900, 700});
  // Through the Export button's menu: the extension picks the format, a name without one is CSV.
  auto* button = tab.view.findChild<QToolButton*>(QStringLiteral("pictureExport"));
  ASSERT_NE(button, nullptr);
  ASSERT_TRUE(button->isEnabled());
  ASSERT_EQ(button->menu()->actions().size(), 2);
  QString answer;
  setFileDialogHook([&answer](const FileDialogRequest&) { return QStringList{answer}; });
  const auto fileText = [](const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string("(missing)");
  };
  answer = dir.filePath(QStringLiteral("menu.json"));
  button->menu()->actions()[0]->trigger();
  EXPECT_EQ(fileText(answer), tab.view.pixelMapText(TableFormat::Json));
  answer = dir.filePath(QStringLiteral("menu"));
  button->menu()->actions()[0]->trigger();
  EXPECT_EQ(fileText(answer + QStringLiteral(".csv")), tab.view.pixelMapText(TableFormat::Csv));
  answer = dir.filePath(QStringLiteral("menu.png"));
  button->menu()->actions()[1]->trigger();
  EXPECT_EQ(QImage(answer).convertToFormat(QImage::Format_RGB32), tab.view.canvas()->render());
  setFileDialogHook({});
  EXPECT_THROW(tab.view.exportMap(dir.filePath(QStringLiteral("no/such/folder/map.csv"))),
               InputError);
  EXPECT_THROW(tab.view.exportOverlay(dir.path()), InputError);  // a folder
}

// The attention dock's map of a tiled picture steps through its tiles (the thumbnail last): tile
// t shows the row's values of tile t's tokens, where it showed tile 0 alone before.
TEST(PictureMap, TheAttentionDocksMapStepsThroughATiledPicturesTiles) {
  SceneModel model;
  Scene s = fixedScene();
  s.layout = parseLayoutSpec("t2,tiled:1920x1080,t4");
  s.design = "mrope";
  s.designParams = {};
  model.setScene(s);
  ASSERT_TRUE(model.waitForMetrics());
  AttentionTokenMap map(&model);
  map.resize(600, 500);
  map.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&map));
  auto result = std::make_shared<AttentionResult>();
  result->request.scene = model.validScene();
  result->request.textToken = 0;
  const std::size_t n = model.metrics().ids.size();
  ASSERT_EQ(n, 2u + 9u * 256u + 4u);
  for (std::size_t i = 0; i < n; ++i) result->textRow.push_back(static_cast<float>(i));
  result->tokens = n;
  map.setResult(result, std::make_shared<std::vector<TokenInfo>>(model.metrics().ids.tokens),
                false);
  map.setVisualSegment(1);
  auto* spin = map.findChild<QSpinBox*>();
  ASSERT_NE(spin, nullptr);
  EXPECT_TRUE(spin->isVisibleTo(&map));
  EXPECT_EQ(spin->maximum(), 8);
  for (int tile : {0, 3, 8}) {
    spin->setValue(tile);
    const std::vector<double>& values = map.canvas()->values();
    ASSERT_EQ(values.size(), 256u);
    for (int k = 0; k < 256; k += 17)
      EXPECT_EQ(values[static_cast<std::size_t>(k)], 2.0 + 256.0 * tile + k) << tile << " " << k;
  }
}
