// Image checks for the GUI tests: "is anything drawn", "how different are two frames", and the
// baseline comparison (ROPESCOPE_UPDATE_BASELINES=1 rewrites the baselines instead).
#pragma once

#include <QImage>
#include <QString>

class QWidget;

namespace ropescope::ui::test {

struct ImageDifference {
  bool sameSize = false;
  double differingFraction = 1.0;  // pixels whose largest channel difference exceeds the threshold
  int maxDelta = 255;
};

ImageDifference compareImages(const QImage& a, const QImage& b, int channelThreshold = 40);

// Share of pixels that differ from the most common colour (the background).
double foregroundFraction(const QImage& image);
int distinctColors(const QImage& image);
// Blank: (almost) one colour, or next to nothing drawn on the background.
bool looksBlank(const QImage& image);

// Compares with baselines/<name>; writes <name> and <name>-diff.png into the output folder on
// failure. Adds GoogleTest failures; returns true on a match.
bool matchesBaseline(const QImage& actual, const QString& name, double allowedFraction = 0.02);

// Shows the widget's window and lets it paint.
void showAndSettle(QWidget* widget);

}  // namespace ropescope::ui::test
