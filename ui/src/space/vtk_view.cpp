#include "space/vtk_view.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QWheelEvent>

#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

namespace ropescope::ui {

namespace {

// One static trampoline for every render-window event VTK asks its host about.
void onWindowEvent(vtkObject*, unsigned long event, void* clientData, void* callData) {
  auto* view = static_cast<VtkView*>(clientData);
  QOpenGLContext* ctx = view->context();
  switch (event) {
    case vtkCommand::WindowMakeCurrentEvent:
      // Pitfall P1: VTK calls this while it builds its own framebuffers; QOpenGLWidget's
      // makeCurrent() would re-bind Qt's FBO under VTK. Switch the context only, and only
      // when it is not current already.
      if (ctx && QOpenGLContext::currentContext() != ctx) ctx->makeCurrent(ctx->surface());
      break;
    case vtkCommand::WindowIsCurrentEvent:
      *static_cast<bool*>(callData) = ctx && QOpenGLContext::currentContext() == ctx;
      break;
    case vtkCommand::WindowSupportsOpenGLEvent:
    case vtkCommand::WindowIsDirectEvent:
      *static_cast<int*>(callData) = 1;
      break;
    default:
      break;
  }
}

}  // namespace

VtkView::VtkView(QWidget* parent)
    : QOpenGLWidget(parent),
      window_(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      renderer_(vtkSmartPointer<vtkRenderer>::New()),
      interactor_(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(160, 120);

  window_->SetReadyForRendering(false);  // no context until initializeGL
  window_->SetMultiSamples(0);           // deterministic pixels for baseline tests (P8)
  window_->SetFrameBlitModeToBlitToCurrent();
  window_->AddRenderer(renderer_);
  installObservers();

  interactor_->SetRenderWindow(window_);
  auto style = vtkSmartPointer<vtkInteractorStyleTrackballCamera>::New();
  interactor_->SetInteractorStyle(style);
  // Styles must never render behind Qt's back: they only ask for a repaint (P10).
  interactor_->EnableRenderOff();
  auto onRender = vtkSmartPointer<vtkCallbackCommand>::New();
  onRender->SetClientData(this);
  onRender->SetCallback([](vtkObject*, unsigned long, void* cd, void*) {
    auto* self = static_cast<VtkView*>(cd);
    self->update();
    emit self->cameraInteracted();
  });
  interactor_->AddObserver(vtkCommand::RenderEvent, onRender);
  interactor_->Initialize();
}

VtkView::~VtkView() {
  if (QOpenGLContext* ctx = context()) {
    // The base destructor destroys the context after this object's members are gone.
    disconnect(ctx, nullptr, this, nullptr);
    makeCurrent();
    window_->Finalize();
    doneCurrent();
  }
}

QSurfaceFormat VtkView::surfaceFormat() {
  QSurfaceFormat fmt;
  fmt.setRenderableType(QSurfaceFormat::OpenGL);
  fmt.setVersion(3, 2);  // VTK 9.1 refuses anything older (P9)
  fmt.setProfile(QSurfaceFormat::CoreProfile);
  fmt.setDepthBufferSize(24);
  fmt.setStencilBufferSize(0);
  fmt.setAlphaBufferSize(8);
  fmt.setSamples(0);  // Qt drops samples for QOpenGLWidget anyway (P8)
  return fmt;
}

vtkRenderer* VtkView::renderer() const {
  return renderer_;
}
vtkGenericOpenGLRenderWindow* VtkView::renderWindow() const {
  return window_;
}

void VtkView::installObservers() {
  auto cmd = vtkSmartPointer<vtkCallbackCommand>::New();
  cmd->SetClientData(this);
  cmd->SetCallback(onWindowEvent);
  for (unsigned long event :
       {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
        vtkCommand::WindowSupportsOpenGLEvent, vtkCommand::WindowIsDirectEvent}) {
    window_->AddObserver(event, cmd);
  }
  auto frame = vtkSmartPointer<vtkCallbackCommand>::New();
  frame->SetClientData(this);
  frame->SetCallback([](vtkObject*, unsigned long, void* cd, void*) {
    auto* self = static_cast<VtkView*>(cd);
    if (!self->inPaint_) self->update();  // someone rendered outside paintGL
  });
  window_->AddObserver(vtkCommand::WindowFrameEvent, frame);
}

void VtkView::initializeGL() {
  ++contextInits_;
  // Pitfall P3: reparenting to another top-level window destroys this context and calls
  // initializeGL again; VTK's GL ids of the old context must be released first.
  connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] { releaseGraphics(); },
      Qt::DirectConnection);
  window_->SetOwnContext(false);
  window_->SetReadyForRendering(true);
  window_->SetForceMaximumHardwareLineWidth(1);
  window_->OpenGLInitContext();
  glReady_ = true;
}

void VtkView::releaseGraphics() {
  if (!glReady_) return;
  makeCurrent();
  window_->ReleaseGraphicsResources(window_);
  doneCurrent();
  window_->SetReadyForRendering(false);
  glReady_ = false;
}

void VtkView::resizeGL(int w, int h) {
  const double dpr = devicePixelRatioF();
  const int pw = static_cast<int>(w * dpr + 0.5);
  const int ph = static_cast<int>(h * dpr + 0.5);
  interactor_->UpdateSize(pw, ph);
  window_->SetSize(pw, ph);
  // VTK text is sized in points.
  window_->SetDPI(static_cast<int>(72 * dpr * figureScale_ + 0.5));
}

void VtkView::paintGL() {
  if (!glReady_) return;
  inPaint_ = true;
  ++paints_;
  vtkOpenGLState* state = window_->GetState();
  state->Reset();  // Qt changed GL state since VTK last looked
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);  // Qt leaves GL_LESS
  window_->Render();
  state->Pop();
  forceOpaqueAlpha();
  QOpenGLFunctions* f = context()->functions();
  for (GLenum err = f->glGetError(); err != GL_NO_ERROR; err = f->glGetError()) ++glErrors_;
  inPaint_ = false;
}

// Pitfall P2: VTK's background has alpha 0; grabs and compositors would show it transparent.
void VtkView::forceOpaqueAlpha() {
  QOpenGLFunctions* f = context()->functions();
  GLboolean mask[4];
  GLfloat clear[4];
  f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  f->glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  f->glClearColor(0.f, 0.f, 0.f, 1.f);
  f->glClear(GL_COLOR_BUFFER_BIT);
  f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
  f->glClearColor(clear[0], clear[1], clear[2], clear[3]);
}

void VtkView::forwardPointer(QMouseEvent* e) {
  // VTK wants device pixels with y up (P7).
  const QPointF p = e->position() * devicePixelRatioF();
  const auto mods = e->modifiers();
  interactor_->SetEventInformationFlipY(
      static_cast<int>(p.x() + 0.5), static_cast<int>(p.y() + 0.5),
      (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0, 0,
      e->type() == QEvent::MouseButtonDblClick ? 1 : 0);
  interactor_->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
}

void VtkView::mousePressEvent(QMouseEvent* e) {
  forwardPointer(e);
  switch (e->button()) {
    case Qt::LeftButton:
      leftDown_ = true;
      pressPos_ = e->position().toPoint();
      interactor_->LeftButtonPressEvent();
      break;
    case Qt::MiddleButton:
      interactor_->MiddleButtonPressEvent();
      break;
    case Qt::RightButton:
      rightDown_ = true;
      rightPressPos_ = e->position().toPoint();
      interactor_->RightButtonPressEvent();
      break;
    default:
      break;
  }
}

void VtkView::mouseReleaseEvent(QMouseEvent* e) {
  forwardPointer(e);
  switch (e->button()) {
    case Qt::LeftButton:
      interactor_->LeftButtonReleaseEvent();
      // A press and release on the same spot is a pick, not a rotation.
      if (leftDown_ && (e->position().toPoint() - pressPos_).manhattanLength() <= 3)
        emit clicked(e->position().toPoint());
      leftDown_ = false;
      break;
    case Qt::MiddleButton:
      interactor_->MiddleButtonReleaseEvent();
      break;
    case Qt::RightButton:
      interactor_->RightButtonReleaseEvent();
      if (rightDown_ && (e->position().toPoint() - rightPressPos_).manhattanLength() <= 3)
        emit contextClicked(e->position().toPoint());
      rightDown_ = false;
      break;
    default:
      break;
  }
}

void VtkView::mouseDoubleClickEvent(QMouseEvent* e) {
  mousePressEvent(e);
}

void VtkView::mouseMoveEvent(QMouseEvent* e) {
  forwardPointer(e);
  interactor_->MouseMoveEvent();
  if (e->buttons() == Qt::NoButton) emit hovered(e->position().toPoint());
}

void VtkView::wheelEvent(QWheelEvent* e) {
  const QPointF p = e->position() * devicePixelRatioF();
  const auto mods = e->modifiers();
  interactor_->SetEventInformationFlipY(
      static_cast<int>(p.x() + 0.5), static_cast<int>(p.y() + 0.5),
      (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0);
  if (e->angleDelta().y() > 0) {
    interactor_->MouseWheelForwardEvent();
  } else if (e->angleDelta().y() < 0) {
    interactor_->MouseWheelBackwardEvent();
  }
  e->accept();
}

void VtkView::enterEvent(QEnterEvent* e) {
  interactor_->EnterEvent();
  QOpenGLWidget::enterEvent(e);
}

void VtkView::leaveEvent(QEvent* e) {
  interactor_->LeaveEvent();
  emit left();
  QOpenGLWidget::leaveEvent(e);
}

}  // namespace ropescope::ui
