// What the Sound tab's canvases and the "sound" figure draw of one audio segment: its samples,
// its tokens' time spans, the overlay from the selected text token, the selected audio token,
// and where a time lies across a plot rectangle.
#pragma once

#include <QColor>
#include <QImage>
#include <QRectF>
#include <QString>

#include <utility>
#include <vector>

#include "sound/sound_source.h"

class QPainter;

namespace ropescope::ui {

struct SoundPicture {
  SoundClip clip;
  double duration = 0.0;                         // seconds across the plots
  std::vector<std::pair<double, double>> spans;  // each token's [start, end) in seconds
  std::vector<double> overlay;                   // per span (empty: no overlay)
  QString overlayName;                           // "distance" or "positional bias"
  double overlayMin = 0.0, overlayMax = 0.0;
  long selected = -1;  // index into spans, -1 for none
  QImage spectrogram;  // frames across, bins up (low frequencies at the bottom); may be null
  double maxHertz = 0.0;
  bool dark = false;
};

// The plot area inside a canvas rectangle: room for the time axis below and the colour bar at
// the right.
QRectF soundPlotRect(const QRectF& canvas);
double xOfSeconds(const QRectF& plot, double duration, double seconds);
double secondsOfX(const QRectF& plot, double duration, double x);

// The canvases' text and frame colour, and the selected token's outline (the 3-D view's
// highlight colours).
QColor soundForeground(bool dark);
QColor soundSelectionColor(bool dark);
// Seconds along the bottom of `plot`.
void paintTimeAxis(QPainter& p, const QRectF& plot, double duration, bool dark);
// What both canvases draw last: the selected token's span outlined, the plot's frame and the
// time axis.
void paintSelectionAndFrame(QPainter& p, const QRectF& plot, const SoundPicture& pic,
                            double duration);

}  // namespace ropescope::ui
