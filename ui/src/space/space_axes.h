// The axes of the 3-D position-id view: t, h and w drawn from one shared origin (the low corner
// of the content), numbered at round values, named at their ends. Numbers and names are screen
// text placed each frame from the camera (readable at any camera, never a squiggle seen
// edge-on); the tick count follows each axis's length on screen, and a label that would touch
// another label, an obstacle (the panel title) or the view's edge is left out.
#pragma once

#include <QRectF>
#include <QString>

#include <array>
#include <string>
#include <vector>

#include <vtkSmartPointer.h>

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace ropescope::ui {

class SpaceAxes {
 public:
  explicit SpaceAxes(vtkRenderer* renderer);
  ~SpaceAxes();
  SpaceAxes(const SpaceAxes&) = delete;
  SpaceAxes& operator=(const SpaceAxes&) = delete;

  void setBounds(const double bounds[6]);
  void setVisible(bool visible);
  void setNumbersVisible(bool visible);
  // Text heights and the line width in device pixels.
  void setSizes(double numberPx, double namePx, double lineWidthPx);
  void setColors(const double foreground[3], const std::array<std::array<double, 3>, 3>& axes);
  void setFontFile(const QString& path);
  // Rectangles (display pixels, origin bottom-left) no label may cover.
  void setObstacles(const std::vector<QRectF>& rects) { obstacles_ = rects; }
  // Rectangles an axis name keeps off where one of its places allows (the tokens): the "h" was
  // drawn over the text tokens in every quadrant of the four-schemes figure.
  void setAvoided(std::vector<QRectF> rects) { avoided_ = std::move(rects); }

  // Places ticks and labels for the renderer's camera; call before each frame.
  void update();

  struct Label {
    std::string text;
    int axis = 0;        // 0 t, 1 h, 2 w
    bool name = false;   // the axis name, not a number
    double value = 0.0;  // the number (numbers only)
    QRectF box;          // display pixels, origin bottom-left
  };
  // The labels shown after the last update().
  const std::vector<Label>& shownLabels() const { return shown_; }

 private:
  vtkTextActor* textActor(std::size_t i);

  vtkRenderer* renderer_;
  double bounds_[6] = {0, 1, 0, 1, 0, 1};
  bool visible_ = false, numbers_ = true;
  double numberPx_ = 12, namePx_ = 15, lineWidth_ = 1;
  double fg_[3] = {0.15, 0.15, 0.15};
  std::array<std::array<double, 3>, 3> axisRgb_{};
  std::string fontFile_;
  std::vector<QRectF> obstacles_;
  std::vector<QRectF> avoided_;
  vtkSmartPointer<vtkPolyData> lines_;
  vtkSmartPointer<vtkActor> linesActor_;
  std::vector<vtkSmartPointer<vtkTextActor>> texts_;
  std::vector<Label> shown_;
};

}  // namespace ropescope::ui
