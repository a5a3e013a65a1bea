// A QOpenGLWidget that hosts a VTK render window, so Debian's Qt-5-built VTK can draw in Qt 6.
// Qt owns the GL context; VTK renders only inside paintGL and asks Qt for repaints.
#pragma once

#include <QOpenGLWidget>
#include <QPoint>
#include <QSurfaceFormat>

#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkRenderer;
class vtkObject;

namespace ropescope::ui {

class VtkView : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit VtkView(QWidget* parent = nullptr);
  ~VtkView() override;

  // The surface format the bridge needs (3.2 core, no MSAA); set it as the default before the
  // QApplication exists.
  static QSurfaceFormat surfaceFormat();

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;

  // GL errors seen after VTK's frames since construction; tests assert this stays 0.
  int glErrorCount() const { return glErrors_; }
  int paintCount() const { return paints_; }
  int contextInitCount() const { return contextInits_; }

  // Figure export: draws points, lines and text `scale` times larger (a figure laid out on a
  // canvas `scale` times smaller than the widget). 1 on screen.
  void setFigureScale(double scale) { figureScale_ = scale; }
  double figureScale() const { return figureScale_; }

 signals:
  // The camera moved through mouse interaction (not through code).
  void cameraInteracted();
  // Pointer positions in widget (logical) pixels.
  void hovered(QPoint pos);
  void clicked(QPoint pos);
  // A right press and release on the same spot (a right drag zooms instead): the context menu.
  void contextClicked(QPoint pos);
  void left();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void enterEvent(QEnterEvent* e) override;
  void leaveEvent(QEvent* e) override;

  // Scales pixel-sized things (points, lines) so they look the same at any device pixel ratio.
  double pixelScale() const { return devicePixelRatioF() * figureScale_; }

 private:
  void installObservers();
  void releaseGraphics();
  void forwardPointer(QMouseEvent* e);
  void forceOpaqueAlpha();

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
  vtkSmartPointer<vtkRenderer> renderer_;
  vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
  bool inPaint_ = false;
  bool glReady_ = false;
  int paints_ = 0;
  int glErrors_ = 0;
  int contextInits_ = 0;
  QPoint pressPos_;
  bool leftDown_ = false;
  QPoint rightPressPos_;
  bool rightDown_ = false;
  double figureScale_ = 1.0;
};

}  // namespace ropescope::ui
