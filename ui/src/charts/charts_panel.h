// The metric charts linked to the scene: decay bound per axis, PTD and bias spread of every
// design, the selected text token's distance and bias profile, and the wavelength of every pair.
#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

#include <vector>

#include "figures/figure_charts.h"
#include "ropescope/scene_changes.h"

class QAbstractAxis;
class QBarSet;
class QAbstractBarSeries;
class QChart;
class QChartView;
class QGridLayout;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;
class QBarCategoryAxis;

namespace ropescope::ui {

class FormulaPanel;
class WhenShown;
class SceneModel;

class ChartsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ChartsPanel(SceneModel* model, QWidget* parent = nullptr);

  void setDark(bool dark);
  // For tests: what the charts plot. A hidden panel (another tab in front) is brought up to
  // date first: these say what it shows once shown.
  int profilePointCount();  // the visual tokens the profile plots (every one)
  long markedVisual();      // the visual token the profile chart marks, -1 for none
  int highlightedDesign();  // index of the highlighted bar, -1 for none
  bool showsStaleBanner();
  FormulaPanel* formulas();
  // With a rope scaling: the wavelength chart's per-axis counts line ("Rings: before
  // scaling. t 16/0/0 · h 8/16/0 · w 0/0/24 (unchanged/ramped/scaled)"), the decay chart's
  // note, and whether the original context length is drawn (inside the distances); empty /
  // false without one.
  QString scalingCountsText();
  QString decayNoteText();
  bool marksOriginalLength();
  // For tests, as they are: the points the profile's two curves draw (decimated for the
  // screen), the full refreshes and the profile redraws run so far.
  int drawnProfilePoints() const;
  int refreshes() const { return refreshes_; }
  int profileDraws() const { return profileDraws_; }

 private:
  // What a hidden panel owes: the model's changes wait until it is shown.
  enum Dirty : unsigned {
    DirtyAll = 1,        // anything but the selection: refresh()
    DirtyProfile = 2,    // the selected text token: refreshProfile()
    DirtyDesigns = 4,    // the design comparison: refreshDesigns()
    DirtySelection = 8,  // the picked visual token: refreshSelection()
  };
  // Notes `what` and has it done now, or when the panel is next shown (model/when_shown.h).
  void owe(unsigned what);
  void catchUp();
  // The profile's curves, decimated to the pixel columns of its plot.
  void drawProfile();
  int profileColumns() const;

  // What a change of the shown scene needs: everything, or only the profile of the selected
  // text token when only the selection moved.
  // The four charts, each added to cells_ with its hover and click (constructor).
  void buildDecayChart();
  void buildDesignBars();
  void buildProfileChart();
  void buildWavelengthChart();
  void onSceneChanged(ropescope::SceneChanges parts);
  void refresh();
  // The selected text token's profile chart (and the visual token marked on it).
  void refreshProfile();
  void refreshSelection();
  void refreshDesigns();
  // The notes a rope scaling adds: the decay chart's (faint curves, the original length) and
  // the wavelength chart's per-axis counts.
  void refreshScalingNotes();
  // `view`, with a note line that arrange() puts under it (hidden until it has something to
  // say).
  QWidget* withNote(QWidget* view, QLabel*& note, const QString& name);
  void applyColors();
  figure::ChartLook look() const;
  QChart* makeChart(const QString& title);
  // Text that must read in full at every size: the forms from the longest to the shortest; the
  // longest that fits the chart at a readable size is shown ((never elided).
  void setTitleForms(QChart* chart, const QStringList& forms);
  void setAxisTitleForms(QAbstractAxis* axis, const QStringList& forms);
  void fitText(QChart* chart);
  void fitBarLabels(QChart* chart, QBarCategoryAxis* axis, QBarSet* set, QChartView* view);

  void arrange(int columns);
  void resizeEvent(QResizeEvent* e) override;

  SceneModel* model_;
  QGridLayout* grid_ = nullptr;
  std::vector<QWidget*> cells_;     // decay, the two bar charts, profile, wavelengths
  QHash<QWidget*, QLabel*> notes_;  // a chart's note line, in the grid row under it
  int columns_ = 0;
  int scrollBarWidth_ = 0;
  bool dark_ = true;
  QLabel* staleBanner_ = nullptr;
  FormulaPanel* formulas_ = nullptr;

  QChart* decayChart_ = nullptr;
  figure::DecayParts decay_;               // its stream curve shown when the layout has audio
  QLineSeries* originalLength_ = nullptr;  // a rope scaling's original context length
  QLabel* decayNote_ = nullptr;
  QLabel* ropeCounts_ = nullptr;  // under the wavelength chart

  QHash<QChart*, QStringList> titleForms_;
  QHash<QAbstractAxis*, QStringList> axisTitleForms_;
  QChartView* ptdView_ = nullptr;
  QChartView* biasView_ = nullptr;

  QChart* ptdChart_ = nullptr;
  QChart* biasChart_ = nullptr;
  QAbstractBarSeries* ptdSeries_ = nullptr;
  QAbstractBarSeries* biasSeries_ = nullptr;
  QBarSet* ptdSet_ = nullptr;
  QBarSet* biasSet_ = nullptr;
  QBarCategoryAxis* ptdX_ = nullptr;
  QBarCategoryAxis* biasX_ = nullptr;
  QValueAxis* ptdY_ = nullptr;
  QValueAxis* biasY_ = nullptr;
  int highlighted_ = -1;

  unsigned dirty_ = 0;
  WhenShown* shown_ = nullptr;
  int refreshes_ = 0;
  int profileDraws_ = 0;

  QChart* profileChart_ = nullptr;
  QChartView* profileView_ = nullptr;
  int drawnColumns_ = 0;       // the columns the profile was decimated for
  bool redrawQueued_ = false;  // a plot-area change asked for a redraw
  figure::ProfileParts profile_;
  QScatterSeries* marker_ = nullptr;
  long marked_ = -1;
  int profileCount_ = 0;  // the visual tokens profiled (the curves draw fewer points)

  QChart* waveChart_ = nullptr;
  figure::WavelengthParts wave_;  // its fourth slot shown when the plan has pairs on it
};

}  // namespace ropescope::ui
