// The list of figure views, in the order File -> Export figure, `render --list-views` and the
// right-click menus show them. Adding a view: one file in views/ (a function returning its
// FigureView) and two lines here, its declaration and its row.
#include "figures/figure_views.h"

#include <algorithm>

#include "ropescope/named.h"

namespace ropescope::ui {

namespace figure_views {
FigureView spaceView();
FigureView compareView();
FigureView decayView();
FigureView decaySubsetView();
FigureView ptdView();
FigureView biasView();
FigureView modalityPtdView();
FigureView modalityBiasView();
FigureView profileView();
FigureView wavelengthsView();
FigureView ageView();
FigureView pictureView();
FigureView pictureBiasView();
FigureView attentionView();
FigureView phasorView();
FigureView soundView();
FigureView principlesView();
FigureView fadingView();
}  // namespace figure_views

const std::vector<FigureView>& figureViews() {
  static const std::vector<FigureView> views = {
      figure_views::spaceView(),         // views/space_figure.cpp
      figure_views::compareView(),       // views/compare_figure.cpp
      figure_views::decayView(),         // views/decay_figures.cpp
      figure_views::decaySubsetView(),   // views/decay_figures.cpp
      figure_views::ptdView(),           // views/design_bar_figures.cpp
      figure_views::biasView(),          // views/design_bar_figures.cpp
      figure_views::modalityPtdView(),   // views/modality_bar_figures.cpp
      figure_views::modalityBiasView(),  // views/modality_bar_figures.cpp
      figure_views::profileView(),       // views/profile_figure.cpp
      figure_views::wavelengthsView(),   // views/wavelengths_figure.cpp
      figure_views::ageView(),           // views/age_figure.cpp
      figure_views::pictureView(),       // views/picture_figures.cpp
      figure_views::pictureBiasView(),   // views/picture_figures.cpp
      figure_views::attentionView(),     // views/attention_figure.cpp
      figure_views::phasorView(),        // views/phasor_figure.cpp
      figure_views::soundView(),         // views/sound_figure.cpp
      figure_views::principlesView(),    // views/principles_figure.cpp
      figure_views::fadingView(),        // views/fading_figure.cpp
  };
  return views;
}

const FigureView& findFigureView(const std::string& name) {
  return findByName(
      figureViews(), name, [](const FigureView& v) { return v.name; }, "view", "view");
}

std::vector<std::string> figureViewsOn(FigureSurface surface) {
  std::vector<std::string> home, others;
  for (const FigureView& v : figureViews()) {
    const auto& on = v.offeredOn;
    if (!on.empty() && on.front() == surface)
      home.push_back(v.name);
    else if (std::find(on.begin(), on.end(), surface) != on.end())
      others.push_back(v.name);
  }
  home.insert(home.end(), others.begin(), others.end());
  return home;
}

std::optional<FigureSurface> figureHome(const std::string& name) {
  for (const FigureView& v : figureViews())
    if (v.name == name && !v.offeredOn.empty()) return v.offeredOn.front();
  return std::nullopt;
}

}  // namespace ropescope::ui
