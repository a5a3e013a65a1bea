// The desktop app's size guard: text x visual pairs up to 2^28 are measured on every edit,
// more are refused with one line naming the counts (found by the GUI abuse test).
#include <gtest/gtest.h>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

using namespace ropescope;

namespace {

Scene withLayout(const char* spec) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(spec);
  return s;
}

TEST(InteractiveSize, RefusesOnlyMoreThanTheLimitWithOneLine) {
  // 16384 text x 16384 visual = 2^28 pairs exactly: measured.
  EXPECT_NO_THROW(checkInteractiveSize(withLayout("t16384,i128x128")));
  EXPECT_NO_THROW(checkInteractiveSize(withLayout("t262144")));   // no visual tokens
  EXPECT_NO_THROW(checkInteractiveSize(withLayout("i512x512")));  // no text tokens
  try {
    checkInteractiveSize(withLayout("t16385,i128x128"));
    ADD_FAILURE() << "2^28 + 16384 pairs should be refused";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.field(), "layout");
    EXPECT_NE(m.find("16385 text x 16384 visual"), std::string::npos) << m;
    EXPECT_NE(m.find("2.68e+08"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  EXPECT_THROW(checkInteractiveSize(withLayout("t131072,i362x362")), InputError);
}

}  // namespace
