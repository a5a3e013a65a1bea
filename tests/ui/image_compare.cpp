#include "image_compare.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHash>
#include <QTest>
#include <QWidget>
#include <QWindow>

#include "gui_test_util.h"

#include <algorithm>
#include <cstdlib>

namespace ropescope::ui::test {

ImageDifference compareImages(const QImage& a, const QImage& b, int channelThreshold) {
  ImageDifference d;
  if (a.size() != b.size() || a.isNull()) return d;
  d.sameSize = true;
  const QImage x = a.convertToFormat(QImage::Format_RGB32);
  const QImage y = b.convertToFormat(QImage::Format_RGB32);
  long differing = 0;
  d.maxDelta = 0;
  for (int row = 0; row < x.height(); ++row) {
    const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
    const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
    for (int col = 0; col < x.width(); ++col) {
      const int delta = std::max({std::abs(qRed(p[col]) - qRed(q[col])),
                                  std::abs(qGreen(p[col]) - qGreen(q[col])),
                                  std::abs(qBlue(p[col]) - qBlue(q[col]))});
      d.maxDelta = std::max(d.maxDelta, delta);
      if (delta > channelThreshold) ++differing;
    }
  }
  d.differingFraction =
      static_cast<double>(differing) / (static_cast<double>(x.width()) * x.height());
  return d;
}

namespace {

QHash<QRgb, long> histogram(const QImage& image) {
  QHash<QRgb, long> counts;
  const QImage x = image.convertToFormat(QImage::Format_RGB32);
  for (int row = 0; row < x.height(); ++row) {
    const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
    for (int col = 0; col < x.width(); ++col) ++counts[p[col] & 0xffffff];
  }
  return counts;
}

QImage diffImage(const QImage& a, const QImage& b) {
  const QImage x = a.convertToFormat(QImage::Format_RGB32);
  const QImage y = b.convertToFormat(QImage::Format_RGB32);
  QImage out(x.size(), QImage::Format_RGB32);
  for (int row = 0; row < x.height(); ++row) {
    for (int col = 0; col < x.width(); ++col) {
      const QRgb p = x.pixel(col, row), q = y.pixel(col, row);
      out.setPixel(col, row,
                   qRgb(std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                        std::abs(qBlue(p) - qBlue(q))));
    }
  }
  return out;
}

}  // namespace

double foregroundFraction(const QImage& image) {
  if (image.isNull()) return 0.0;
  const auto counts = histogram(image);
  long top = 0;
  for (long c : counts) top = std::max(top, c);
  const double total = static_cast<double>(image.width()) * image.height();
  return 1.0 - static_cast<double>(top) / total;
}

int distinctColors(const QImage& image) {
  return static_cast<int>(histogram(image).size());
}

bool looksBlank(const QImage& image) {
  // The gradient background alone has many colours, so both tests are needed.
  return image.isNull() || distinctColors(image) < 16 || foregroundFraction(image) < 0.02;
}

bool matchesBaseline(const QImage& actual, const QString& name, double allowedFraction) {
  const QString baselinePath = QStringLiteral(ROPESCOPE_UI_BASELINES) + QLatin1Char('/') + name;
  const QString outDir = QStringLiteral(ROPESCOPE_UI_OUTPUT);
  QDir().mkpath(outDir);
  // A name may hold a folder ("figures/x.png"): both sides get it.
  QDir().mkpath(QFileInfo(outDir + QLatin1Char('/') + name).path());
  if (qEnvironmentVariableIntValue("ROPESCOPE_UPDATE_BASELINES") == 1) {
    QDir().mkpath(QFileInfo(baselinePath).path());
    EXPECT_TRUE(actual.convertToFormat(QImage::Format_RGB32).save(baselinePath));
    std::fprintf(stderr, "baseline written: %s\n", qPrintable(baselinePath));
    return true;
  }
  const QImage baseline(baselinePath);
  if (baseline.isNull()) {
    actual.save(outDir + QLatin1Char('/') + name);
    ADD_FAILURE() << "no baseline " << baselinePath.toStdString()
                  << "; run with ROPESCOPE_UPDATE_BASELINES=1 to create it";
    return false;
  }
  const ImageDifference d = compareImages(actual, baseline);
  const bool ok = d.sameSize && d.differingFraction <= allowedFraction;
  if (!ok) {
    actual.save(outDir + QLatin1Char('/') + name);
    if (d.sameSize)
      diffImage(actual, baseline).save(outDir + QLatin1Char('/') + name + "-diff.png");
    ADD_FAILURE() << name.toStdString() << " differs from its baseline: size match " << d.sameSize
                  << ", " << d.differingFraction * 100 << "% of pixels differ (allowed "
                  << allowedFraction * 100 << "%); actual image in " << outDir.toStdString();
  }
  return ok;
}

namespace {

// Counts the paint events of a window's widgets (the window or any widget inside it) while it
// lives: a covered widget (a view inside a scroll area) may never get one itself.
class WindowPaints : public QObject {
 public:
  explicit WindowPaints(QWidget* window) : window_(window) { qApp->installEventFilter(this); }
  ~WindowPaints() override { qApp->removeEventFilter(this); }
  WindowPaints(const WindowPaints&) = delete;
  WindowPaints& operator=(const WindowPaints&) = delete;
  int count() const { return count_; }

  bool eventFilter(QObject* object, QEvent* event) override {
    if (event->type() == QEvent::Paint && object->isWidgetType()) {
      auto* w = static_cast<QWidget*>(object);
      if (w == window_ || window_->isAncestorOf(w)) ++count_;
    }
    return false;
  }

 private:
  QWidget* window_;
  int count_ = 0;
};

}  // namespace

void showAndSettle(QWidget* widget) {
  QWidget* top = widget->window();
  const WindowPaints paints(top);
  top->show();
  EXPECT_TRUE(waitUntil([top] { return top->windowHandle() && top->windowHandle()->isExposed(); }));
  // A window that was on the screen already paints again only when asked.
  top->update();
  EXPECT_TRUE(waitUntil([&paints] { return paints.count() > 0; }));
  // What the first paint set off (queued refreshes, relayouts, the GL views' first frames) runs
  // out before the caller looks.
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
  }
}

}  // namespace ropescope::ui::test
