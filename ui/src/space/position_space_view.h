// The 3-D view of the position-id space: text tokens along the text axis, visual tokens coloured
// by grid cell or modality, audio tokens as their own track, the selected text token's lines to
// every visual token, axes, picking.
#pragma once

#include <QRectF>
#include <QString>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include <vtkSmartPointer.h>

#include "picture/picture_tiles.h"
#include "ropescope/layout.h"
#include "ropescope/position_ids.h"
#include "space/space_axes.h"
#include "space/vtk_view.h"

class vtkActor;
class vtkCamera;
class vtkPolyData;
class vtkTextActor;

namespace ropescope::ui {

enum class ColorMode { GridCell, Modality };
enum class CameraPreset { Default, DownTextAxis, SideOn };

class PositionSpaceView : public VtkView {
  Q_OBJECT

 public:
  explicit PositionSpaceView(QWidget* parent = nullptr);
  ~PositionSpaceView() override;

  // selectedToken: token index of the selected text token, -1 for none;
  // selectedVisual: index among visual tokens, -1 for none. Ids equal to the shown ones (only
  // the selection changed) redraw the selection's cone and marks, not the tokens' geometry.
  void showIds(const PositionIds& ids, long selectedToken, long selectedVisual);
  // The same when the caller knows the ids are the shown ones (its change set left them alone):
  // no comparison of the ids. False, changing nothing, when the view has no tokens to keep.
  bool showSelection(long selectedToken, long selectedVisual);
  // Token index of the selected text token the view shows, -1 for none.
  long selectedToken() const { return selectedToken_; }
  // How often the tokens' geometry was built (tests: a selection click builds none).
  int geometryBuilds() const { return geometryBuilds_; }
  // The selected text token's cone draws at most about this many lines. Past it, lines go to an
  // even sample of the visual tokens plus the ones that bound the cone (each axis's least and
  // greatest id, the nearest and the farthest visual token from the selected one), and a note in
  // the bottom-left corner says how many of how many. A line to each of 250 000 tokens cost
  // llvmpipe seconds a click and drew no more than a solid wash; 4096 translucent lines still
  // took half of a 54 ms frame of t1000,i500x500, 1024 draw the same wash in a quarter of that.
  static constexpr std::size_t kMaxConeLines = 1024;
  // Past this many visual points the view draws a lattice of them: every s-th row and column
  // of each grid (and its last row and column), s the largest stride at which the drawn points
  // still overlap on the screen at the current zoom, so the grid covers the same area in the
  // same colours and a frame of t1000,i500x500 costs llvmpipe a fraction (all 250 000 spheres:
  // 0.4 s a frame on two cores). Zooming in lowers the stride, down to every point; a note in
  // the bottom-left corner says so. Hover, clicks and the cone use every token.
  static constexpr std::size_t kPointBudget = 16384;
  static constexpr int kMaxPointStride = 64;
  // The drawn lattice's stride (1: every visual point) and the tokens drawn as points.
  int pointStride() const { return pointStride_; }
  const std::vector<long>& drawnPoints() const { return drawnPoints_; }
  // The visual tokens (token indices) the cone's lines go to; empty without a selection.
  const std::vector<long>& coneEnds() const { return coneEnds_; }
  bool coneSampled() const { return !coneSample_.empty() && !coneEnds_.empty(); }
  // The note under the cone ("cone: lines to N of M visual tokens ..."); empty when unsampled.
  QString coneNote() const;
  // The note over a stale view as drawn ("input invalid ..."), empty while it is hidden.
  QString staleNote() const;
  // Where the title and the axis key were drawn last, in display pixels with y up (VTK's);
  // empty when not shown. The key hangs below a title that would reach it.
  QRectF titleBox() const { return titleBox_; }
  QRectF axisKeyBox() const { return keyBox_; }
  QRectF staleNoteBox() const { return staleBox_; }
  // The layout the ids belong to: its picture segments are drawn as textured tiles. Set it
  // before showIds(); an empty layout (the default) draws every visual token as a point.
  void setLayout(const Layout& layout);
  // The selected audio token (index among audio tokens, PositionIds::audioIndices order), -1
  // for none: highlighted on the audio track. Kept across showIds() until changed.
  void setSelectedAudio(long audioIndex);
  long selectedAudio() const { return selectedAudio_; }
  // Token indices of the audio tokens, in order (the audio track's points).
  const std::vector<long>& audioTokens() const { return audioTokens_; }
  // Tokens marked with the selection's highlight (check ids: the tokens that differ from a
  // model's dump), kept until the next call; an empty list clears them.
  void setMarkedTokens(std::vector<long> tokens);
  const std::vector<long>& markedTokens() const { return marked_; }
  void setTileFacing(TileFacing facing);
  TileFacing tileFacing() const { return tiles_->facing(); }
  const PictureTiles& tiles() const { return *tiles_; }
  // The t/h/w axes (their labels as placed for the last frame; for tests).
  const SpaceAxes& axes() const { return *axes_; }
  void setColorMode(ColorMode mode);
  ColorMode colorMode() const { return colorMode_; }
  // Stale: the view still shows an earlier scene, faded, with `why` over it (by default: the
  // input is invalid and this is the last valid scene).
  void setStale(bool stale, const QString& why = {});
  bool isStale() const { return stale_; }
  void setTitle(const QString& title);
  // The t/h/w colour key in the top-right corner (the view's legend).
  void setAxisKeyVisible(bool visible);
  // The cube axes' number labels (figures leave them out where they would crowd).
  void setAxisLabelsVisible(bool visible);
  // Title and axis key in a TrueType font file (figures: the charts' DejaVu Sans).
  void setTextFontFile(const QString& path);
  void setDark(bool dark);

  // Places the camera for a preset and fits `bounds` (xmin,xmax,ymin,ymax,zmin,zmax), or the
  // view's own content when bounds is null: the content (its tokens and the axes) fills the
  // view up to a margin for the axis labels and the title.
  void applyPreset(CameraPreset preset, const double* bounds = nullptr);
  // The tokens' box, or the fixed bounds where they are set.
  void contentBounds(double bounds[6]) const;
  // Bounds that stand for the content's (camera fit, axes, clipping) until cleared (null): an
  // animation's frames share the box of all its frames, so the camera and the axes' ticks stay
  // put (the first frame was framed for all frames and every later one refitted to its own).
  void setFixedBounds(const double* bounds);
  // The camera's near and far planes around the tokens' box (with room for the axes).
  void resetClippingRange();
  // Lets several views share one camera (compare mode's linked cameras).
  void setCamera(vtkCamera* camera);
  vtkCamera* camera() const;
  // The camera with what decides its next refit (the last preset, whether the user moved it
  // since): what a caller that changes the camera for a while (the tour) keeps and gives back.
  struct CameraState {
    vtkSmartPointer<vtkCamera> camera;
    CameraPreset preset = CameraPreset::Default;
    bool moved = false;
  };
  CameraState cameraState() const;
  void restoreCameraState(const CameraState& state);

  // Token under a widget-pixel position (within a few pixels), -1 if none.
  long tokenAt(QPoint pos) const;
  // Where a token is drawn, in widget pixels (for tests and tooltips); (-1,-1) if off-screen.
  QPointF tokenPosition(long token) const;
  QString describeToken(long token) const;
  const PositionIds& ids() const { return ids_; }

 signals:
  void textTokenClicked(int textIndex);
  void visualTokenClicked(long visualIndex);
  void audioTokenClicked(long audioIndex);

 protected:
  void resizeGL(int w, int h) override;

 private:
  void applyPixelSizes();
  // Zooms and pans (keeping the direction) so `bounds`' corners, or the content when null, fill
  // the view up to the label margins.
  void fitCamera(const double* bounds);
  void placeAxes(vtkRenderer* renderer);
  // The sampled cone's note, in a short form where the view is narrow (a compare quadrant).
  void writeConeNote();
  void rebuild();
  // The cone's opacity, and whether VTK's translucent pass must sort its lines (stale view,
  // picture tiles) or they blend in the opaque pass.
  void applyConeOpacity();
  // The selected text token's cone to every visual token and the highlighted tokens.
  void rebuildSelection();
  // Picks the visual tokens the cone's lines go to in a large scene (coneSample_).
  void sampleCone();
  bool showsSameTokens(const PositionIds& ids) const;
  void onHover(QPoint pos);
  void onClick(QPoint pos);
  void applyColors();
  void applyTheme();
  // The lattice stride the current camera needs (kPointBudget); 1 when every point is drawn.
  int wantedPointStride(vtkRenderer* renderer) const;
  // The visual points for pointStride_ (drawnPoints_), their colours and the note.
  void buildVisualPoints();

  PositionIds ids_;
  std::vector<long> textIndexOf_;    // per token: index among text tokens or -1
  std::vector<long> visualIndexOf_;  // per token: index among visual tokens or -1
  std::vector<long> audioIndexOf_;   // per token: index among audio tokens or -1
  std::vector<long> audioTokens_;    // token index of each audio token
  long selectedAudio_ = -1;
  std::vector<long> visualTokens_;  // token index of every visual token
  std::vector<long> pointTokens_;   // visual tokens drawn as points (not as picture tiles)
  std::vector<long> drawnPoints_;   // of those, the ones drawn at pointStride_ (all when 1)
  int pointStride_ = 1;
  Layout layout_;
  bool tilesDirty_ = true;
  std::unique_ptr<PictureTiles> tiles_;
  long selectedToken_ = -1;
  long selectedVisual_ = -1;
  std::vector<long> marked_;
  ColorMode colorMode_ = ColorMode::GridCell;
  bool stale_ = false;
  std::size_t coneShown_ = 0;  // lines the sampled cone draws (0: every one, no note)
  bool dark_ = true;
  bool hasContent_ = false;
  QString shapeKey_;  // camera is refitted only when the kind of content changes
  CameraPreset preset_ = CameraPreset::Default;  // the last preset applied
  bool cameraMoved_ = false;                     // by the user since the last preset
  int geometryBuilds_ = 0;
  std::vector<long> coneSample_;  // token indices, sorted; empty: a line to every visual token
  std::vector<long> coneEnds_;

  vtkSmartPointer<vtkPolyData> textPoints_, textLine_, visualPoints_, cone_, highlight_;
  vtkSmartPointer<vtkPolyData> audioPoints_, audioLine_;
  vtkSmartPointer<vtkActor> audioPointsActor_, audioLineActor_;
  vtkSmartPointer<vtkActor> textPointsActor_, textLineActor_, visualActor_, coneActor_,
      highlightActor_;
  std::unique_ptr<SpaceAxes> axes_;
  std::optional<std::array<double, 6>> fixedBounds_;
  vtkSmartPointer<vtkTextActor> staleText_, titleText_, coneNote_;
  QRectF titleBox_, keyBox_, staleBox_;
  // Colour key of the axes: the cube axes' own titles get small in a busy scene.
  std::array<vtkSmartPointer<vtkTextActor>, 3> axisKey_;
};

}  // namespace ropescope::ui
