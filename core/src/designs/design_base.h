// Common storage for a design's name, title, summary, metric space and parameter specs, so each
// design file holds only its id rule.
#pragma once

#include "../block_walk.h"
#include "ropescope/position_design.h"

namespace ropescope::detail {

class DesignBase : public PositionDesign {
 public:
  DesignBase(std::string name, std::string title, std::string summary, MetricSpace space,
             std::vector<ParameterSpec> specs)
      : name_(std::move(name)),
        title_(std::move(title)),
        summary_(std::move(summary)),
        space_(space),
        specs_(std::move(specs)) {}

  std::string name() const override { return name_; }
  std::string title() const override { return title_; }
  std::string summary() const override { return summary_; }
  MetricSpace metricSpace() const override { return space_; }
  std::vector<ParameterSpec> parameters() const override { return specs_; }

 private:
  std::string name_, title_, summary_;
  MetricSpace space_;
  std::vector<ParameterSpec> specs_;
};

const PositionDesign& hardDesign();
const PositionDesign& unorderedDesign();
const PositionDesign& spatialDesign();
const PositionDesign& mropeDesign();
const PositionDesign& mropeResetDesign();
const PositionDesign& videoRopeDesign();
const PositionDesign& hopeDesign();
const PositionDesign& circleDesign();
const PositionDesign& v2peDesign();
// Research designs.
const PositionDesign& mcaDesign();
const PositionDesign& mmRopeDesign();
const PositionDesign& omniropeDesign();
const PositionDesign& ilropeDesign();
const PositionDesign& vropeDesign();
const PositionDesign& tadTcDesign();
const PositionDesign& tadVideoRopeDesign();
const PositionDesign& pypeDesign();
const PositionDesign& partialYarnDesign();
const PositionDesign& thumbInheritDesign();

}  // namespace ropescope::detail
