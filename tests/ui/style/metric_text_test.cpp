// The app's one metric formatter: one number reads one way everywhere, a
// zero up to rounding reads 0, an undefined value reads n/a with its reason, never 0.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ropescope/layout.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "style/metric_text.h"

using namespace ropescope;
using namespace ropescope::ui;

TEST(MetricText, OneRuleForEveryValue) {
  EXPECT_EQ(metricText(20.0 / 9.0), QStringLiteral("2.2222"));  // hard embedding, i3x3 + t5
  EXPECT_EQ(metricText(0.0), QStringLiteral("0"));
  // Circle-RoPE's PTD is 0 up to rounding: the 4.6e-16 the CLI prints reads 0, as exact 0 does.
  EXPECT_EQ(metricText(4.646e-16), QStringLiteral("0"));
  EXPECT_EQ(metricText(-3e-12), QStringLiteral("0"));
  EXPECT_EQ(metricText(0.0554012), QStringLiteral("0.055401"));
  EXPECT_EQ(metricText(12.5), QStringLiteral("12.5"));
  EXPECT_EQ(metricText(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("n/a"));
  EXPECT_EQ(shownMetric(4.646e-16), 0.0);
  EXPECT_EQ(shownMetric(2.5), 2.5);
}

TEST(MetricText, UndefinedValuesCarryCoresReason) {
  const PtdResult r = perTokenDistance(findDesign("mrope").ids(parseLayoutSpec("t5"), {}));
  ASSERT_FALSE(r.defined());
  EXPECT_EQ(metricText(r.ptd, r.undefinedReason),
            QStringLiteral("n/a (PTD needs at least one text and one visual token (layout has 5 "
                           "text, 0 visual))"));
  EXPECT_EQ(metricText(r.ptd), QStringLiteral("n/a"));
  // Titles say what is missing in a few words.
  EXPECT_EQ(metricTitleText(r.ptd, r.nText, r.nVisual), QStringLiteral("n/a (no visual token)"));
  EXPECT_EQ(metricTitleText(std::nan(""), 0, 4), QStringLiteral("n/a (no text token)"));
  EXPECT_EQ(metricTitleText(20.0 / 9.0, 5, 9), QStringLiteral("2.2222"));
  // A defined value ignores an empty reason.
  EXPECT_EQ(metricText(2.0, std::string()), QStringLiteral("2"));
}

// A bias spread still coming from the background reads "computing…": not n/a (it is defined)
// and not 0; once in, it reads as every metric does, with the core's reason when undefined.
TEST(MetricText, APendingBiasSpreadSaysItIsComputing) {
  ropescope::Scene s = ropescope::defaultScene();
  s.layout = parseLayoutSpec("t4,i3x3,t5");
  ropescope::SceneMetrics m =
      ropescope::computeSceneMetrics(s, 8, 1, ropescope::BiasSpreadWhen::Later);
  const QString computing = QStringLiteral("computing\u2026");
  EXPECT_EQ(biasSpreadText(m, false), computing);
  EXPECT_EQ(biasSpreadText(m, true), computing);
  m.bias = ropescope::sceneBiasSpread(s, 1);
  m.biasPending = false;
  ASSERT_TRUE(m.bias.defined());
  EXPECT_EQ(biasSpreadText(m, false), metricText(m.bias.spread));
  EXPECT_EQ(biasSpreadText(m, true), metricText(m.bias.spread));
  s.layout = parseLayoutSpec("t5");
  const ropescope::SceneMetrics text = ropescope::computeSceneMetrics(s, 8, 1);
  EXPECT_EQ(biasSpreadText(text, false), QStringLiteral("n/a"));
  EXPECT_EQ(biasSpreadText(text, true), metricText(text.bias.spread, text.bias.undefinedReason));
  EXPECT_TRUE(biasSpreadText(text, true).startsWith(QStringLiteral("n/a (")));
}
