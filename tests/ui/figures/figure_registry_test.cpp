// The figure-view registry (figure_registry.cpp): every entry is whole (a unique name, its
// drawing by its kind, its table), renders and exports its table with the header written here
// from the views' documented columns, and is offered where its entry says: the right-click menus
// of the main window, the Export menu and `render --list-views` all walk the registry, so adding
// a view is one file in figures/views/ and one row there.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QMenu>
#include <QTabWidget>
#include <QTimer>

#include <map>
#include <set>
#include <sstream>

#include "attention/attention_view.h"
#include "charts/charts_panel.h"
#include "charts/compare_view.h"
#include "figures/figure_menu.h"
#include "figures/figure_presets.h"
#include "figures/figure_views.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "picture/picture_view.h"
#include "ropescope/errors.h"
#include "ropescope_ui/figure_cli.h"
#include "shell/main_window.h"
#include "sound/sound_spectrogram.h"
#include "sound/sound_view.h"
#include "sound/sound_waveform.h"
#include "space/position_space_view.h"
#include "teaching/phasor_view.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// The first preset whose scene has what `v` needs (every need is met by one of the presets).
const FigurePreset* registryPresetFor(const FigureView& v) {
  for (const FigurePreset& p : figurePresets()) {
    try {
      checkFigureNeeds(p.scene, v);
      return &p;
    } catch (const InputError&) {
    }
  }
  return nullptr;
}

std::string registryFirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

// The texts of the context menu that `raise` opens (a modal QMenu, read and closed from a timer).
std::vector<std::string> registryMenuTexts(const std::function<void()>& raise) {
  std::vector<std::string> texts;
  QTimer::singleShot(0, [&texts] {
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu) return;
    for (QAction* a : menu->actions()) texts.push_back(a->text().toStdString());
    menu->close();
  });
  raise();
  return texts;
}

std::vector<std::string> registryEntries(std::initializer_list<const char*> views) {
  std::vector<std::string> out;
  for (const char* v : views)
    out.push_back(std::string(v) == "attention"
                      ? "Export attention figure (logits, identical q and k)\xe2\x80\xa6"
                      : std::string("Export ") + v + " figure\xe2\x80\xa6");
  return out;
}

}  // namespace

// Names unique and in their order; each entry draws by its kind (a chart, a painter or an image:
// exactly one) and has its table; its formats are its kind's.
TEST(FigureRegistry, EveryEntryIsWholeAndNamedOnce) {
  std::set<std::string> names;
  for (const FigureView& v : figureViews()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name << " listed twice";
    EXPECT_FALSE(v.name.empty());
    EXPECT_FALSE(v.description.empty()) << v.name;
    EXPECT_NE(v.data, nullptr) << v.name;
    const int drawers = (v.chart != nullptr) + (v.painter != nullptr) + (v.image != nullptr);
    EXPECT_EQ(drawers, 1) << v.name;
    switch (v.kind) {
      case FigureKind::Chart:
        EXPECT_NE(v.chart, nullptr) << v.name;
        break;
      case FigureKind::Heatmap:
      case FigureKind::Painted:
        EXPECT_NE(v.painter, nullptr) << v.name;
        break;
      case FigureKind::Space:
        EXPECT_NE(v.image, nullptr) << v.name;
        break;
    }
    ASSERT_FALSE(v.formats.empty()) << v.name;
    EXPECT_EQ(v.formats.front(), v.kind == FigureKind::Space ? "png" : "svg") << v.name;
    const std::set<FigureSurface> on(v.offeredOn.begin(), v.offeredOn.end());
    EXPECT_EQ(on.size(), v.offeredOn.size()) << v.name << " offered twice on a surface";
    EXPECT_EQ(&findFigureView(v.name), &v);
  }
  // The order of the Export menu and `render --list-views`, as it was before the registry.
  std::vector<std::string> order;
  for (const FigureView& v : figureViews()) order.push_back(v.name);
  EXPECT_EQ(order, (std::vector<std::string>{
                       "space", "compare", "decay", "decay-subset", "ptd", "bias", "modality-ptd",
                       "modality-bias", "profile", "wavelengths", "age", "picture", "picture-bias",
                       "attention", "phasor", "sound", "principles", "fading"}));
  EXPECT_THROW(findFigureView("no-such-view"), InputError);
  EXPECT_THROW(figureChart(Scene{}, findFigureView("phasor"), FigureOptions{}), InputError);
}

// Every entry renders at the requested size on a preset that has what it needs, and its CSV
// starts with its columns (written here from each table's meaning, not read from the code).
TEST(FigureRegistry, EveryEntryRendersAndExportsItsTable) {
  const std::map<std::string, std::string> header = {
      {"space", "index,modality,segment,frame,row,col,t,h,w"},
      {"compare", "design,ptd,token,modality,t,h,w"},
      {"decay", "distance,U_"},
      {"decay-subset", "distance,U_"},
      {"ptd", "design,title,ptd,bias_spread"},
      {"bias", "design,title,ptd,bias_spread"},
      {"modality-ptd", "from,to,n_from,n_to,ptd,bias_spread,not_computed"},
      {"modality-bias", "from,to,n_from,n_to,ptd,bias_spread,not_computed"},
      {"profile", "visual,distance,bias"},
      {"wavelengths", "index,axis,theta,wavelength,full_turn,dim_a,dim_b"},
      {"age", "layer,circle"},
      {"picture", "temporal,row,col,visual,distance"},
      {"picture-bias", "temporal,row,col,visual,bias"},
      {"attention", "query"},
      {"phasor",
       "pair,axis,theta,delta_t,delta_h,delta_w,phase,wrapped,turns,re,im,sum_re,"
       "sum_im,sum_length,decay_bound,bias"},
      {"sound", "audio,token,segment,index,start_s,end_s"},
      {"principles", "label,design,plan,coherence,frequency,text_prior"},
      {"fading", "text_token,token,uniform,hard,unordered,spatial,circle"},
  };
  FigureOptions o;
  o.size = QSize(420, 300);
  for (const FigureView& v : figureViews()) {
    const FigurePreset* p = registryPresetFor(v);
    ASSERT_NE(p, nullptr) << v.name << ": no preset has what it needs";
    o.maxDistance = p->maxDistance;
    const QImage image = figureImage(p->scene, v, o);
    EXPECT_EQ(image.size(), o.size) << v.name;
    EXPECT_GT(test::foregroundFraction(image), 0.003) << v.name;
    ASSERT_EQ(header.count(v.name), 1u) << v.name << " has no expected header here";
    const std::string csv = figureData(p->scene, v, TableFormat::Csv, o);
    EXPECT_EQ(registryFirstLine(csv).rfind(header.at(v.name), 0), 0u)
        << v.name << ": " << registryFirstLine(csv);
    EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 1) << v.name << ": no rows";
    const std::string json = figureData(p->scene, v, TableFormat::Json, o);
    EXPECT_EQ(json.front(), '{') << v.name;
    if (v.kind == FigureKind::Chart) EXPECT_NE(figureChart(p->scene, v, o), nullptr) << v.name;
  }
}

// The surfaces offer what the entries say, home views first: the lists the window held by hand
// before the registry, unchanged.
TEST(FigureRegistry, SurfacesOfferWhatTheirEntriesSay) {
  const std::map<FigureSurface, std::vector<std::string>> expected = {
      {FigureSurface::Space, {"space", "compare"}},
      {FigureSurface::Compare, {"compare", "space"}},
      {FigureSurface::Charts,
       {"decay", "decay-subset", "ptd", "bias", "profile", "wavelengths", "age"}},
      {FigureSurface::Picture, {"picture", "picture-bias"}},
      {FigureSurface::Attention, {"attention"}},
      {FigureSurface::Phasor, {"phasor"}},
      {FigureSurface::Sound, {"sound"}},
  };
  for (const auto& [surface, views] : expected) {
    EXPECT_EQ(figureViewsOn(surface), views) << static_cast<int>(surface);
    for (const std::string& v : views) {
      const auto& on = findFigureView(v).offeredOn;
      EXPECT_NE(std::find(on.begin(), on.end(), surface), on.end()) << v;
    }
  }
  EXPECT_EQ(figureHome("compare"), FigureSurface::Compare);
  EXPECT_EQ(figureHome("picture-bias"), FigureSurface::Picture);
  EXPECT_EQ(figureHome("fading"), std::nullopt);
  EXPECT_EQ(figureHome("no-such-view"), std::nullopt);
}

// The window's right-click menus, its Export menu and render's list are walks over the registry:
// a new entry appears in each without an edit there.
TEST(FigureRegistry, MenusAndTheRenderListComeFromTheRegistry) {
  MainWindow w;
  w.resize(1200, 800);
  test::showAndSettle(&w);
  const auto contextMenu = [](QWidget* widget) {
    return registryMenuTexts([widget] { emit widget->customContextMenuRequested(QPoint(4, 4)); });
  };
  EXPECT_EQ(contextMenu(w.charts()), registryEntries({"decay", "decay-subset", "ptd", "bias",
                                                      "profile", "wavelengths", "age"}));
  EXPECT_EQ(contextMenu(w.pictureView()), registryEntries({"picture", "picture-bias"}));
  EXPECT_EQ(contextMenu(w.attentionView()), registryEntries({"attention"}));
  EXPECT_EQ(contextMenu(w.phasorView()->canvas()), registryEntries({"phasor"}));
  EXPECT_EQ(contextMenu(w.soundView()->waveform()), registryEntries({"sound"}));
  EXPECT_EQ(contextMenu(w.soundView()->spectrogramCanvas()), registryEntries({"sound"}));
  EXPECT_EQ(registryMenuTexts([&w] { emit w.spaceView()->contextClicked(QPoint(4, 4)); }),
            registryEntries({"space", "compare"}));
  PositionSpaceView* quarter = w.compareView()->view(0);
  EXPECT_EQ(registryMenuTexts([quarter] { emit quarter->contextClicked(QPoint(4, 4)); }),
            registryEntries({"compare", "space"}));

  // File -> Export figure: an entry per registry row, in its order.
  std::vector<std::string> exported, registered, listed;
  for (QAction* a : w.findChildren<QAction*>())
    if (a->objectName().startsWith(QStringLiteral("export_")))
      exported.push_back(a->objectName().mid(7).toStdString());
  for (const FigureView& v : figureViews()) registered.push_back(v.name);
  EXPECT_EQ(exported, registered);
  // `render --list-views` (app/cmd_render.cpp) prints figureViewList.
  for (const FigureViewInfo& v : figureViewList()) {
    listed.push_back(v.name);
    EXPECT_EQ(v.formats, findFigureView(v.name).formats) << v.name;
    EXPECT_EQ(v.needsDisplay, findFigureView(v.name).kind == FigureKind::Space) << v.name;
    EXPECT_EQ(v.takesDisplacement, v.name == "phasor") << v.name;
  }
  EXPECT_EQ(listed, registered);

  // A preset opens its view's home: the compare grid for compare; a space preset, whose home is
  // the 3-D view, leaves the grid and shows the charts beside it, not the Picture tab.
  QAction* four = w.findChild<QAction*>(QStringLiteral("preset_circle-four-schemes"));
  ASSERT_NE(four, nullptr);
  four->trigger();
  EXPECT_TRUE(w.compareMode());
  QAction* picture = w.findChild<QAction*>(QStringLiteral("preset_circle-picture"));
  ASSERT_NE(picture, nullptr);
  picture->trigger();
  EXPECT_FALSE(w.compareMode());
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  ASSERT_NE(tabs, nullptr);
  EXPECT_EQ(tabs->currentWidget(), static_cast<QWidget*>(w.charts()));
}
