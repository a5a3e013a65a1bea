// Common storage for a frequency plan's name, title and summary, and the plan declarations.
#pragma once

#include "ropescope/frequency_plan.h"

namespace ropescope::detail {

class PlanBase : public FrequencyPlan {
 public:
  PlanBase(std::string name, std::string title, std::string summary, bool sections)
      : name_(std::move(name)),
        title_(std::move(title)),
        summary_(std::move(summary)),
        sections_(sections) {}
  std::string name() const override { return name_; }
  std::string title() const override { return title_; }
  std::string summary() const override { return summary_; }
  bool usesSections() const override { return sections_; }

 private:
  std::string name_, title_, summary_;
  bool sections_;
};

// Splits n into (t, h, w) with t ~ n/4 and h, w sharing the rest: [16,24,24] for 64.
std::vector<int> quarterTemporalSections(int n);

const FrequencyPlan& vanillaPlan();
const FrequencyPlan& mropePlan();
const FrequencyPlan& interleavedPlan();
const FrequencyPlan& multiheadPlan();
const FrequencyPlan& videoRopePlan();
const FrequencyPlan& videoRopeRepoPlan();
const FrequencyPlan& hopePlan();
const FrequencyPlan& erniePlan();
const FrequencyPlan& mmRopePlan();  // research designs
const FrequencyPlan& vropePlan();

}  // namespace ropescope::detail
