// The desktop app's size guard: text x visual pairs up to 2^28 are measured on every edit,
// more are refused with one line naming the counts (found by the GUI abuse test).
#include <gtest/gtest.h>

#include "ropescope/attention.h"
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

TEST(InteractiveSize, PreviewQkRefusedOnlyAboveItsLimitWithOneLine) {
  QkSourceSpec random;
  random.kind = QkSourceSpec::Kind::Random;
  random.heads = 4;
  // 4 x 131072 x 128 = 2^26 values exactly: accepted; one token more is refused.
  EXPECT_NO_THROW(checkPreviewQkSize(random, 131072, 128));
  try {
    checkPreviewQkSize(random, 131073, 128);
    ADD_FAILURE() << "2^26 + 512 values should be refused";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.field(), "heads");
    EXPECT_NE(m.find("4 head(s) x 131073 tokens x 128 dims"), std::string::npos) << m;
    EXPECT_NE(m.find("67108864"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  // The abuse test's case: 4 random heads on a 245764-token scene.
  EXPECT_THROW(checkPreviewQkSize(random, 245764, 128), InputError);
  QkSourceSpec identical;  // 1 head: the same scene is previewed
  EXPECT_NO_THROW(checkPreviewQkSize(identical, 245764, 128));
  QkSourceSpec files;  // the user's own files: their size is the user's choice
  files.kind = QkSourceSpec::Kind::Files;
  files.heads = 64;
  EXPECT_NO_THROW(checkPreviewQkSize(files, 245764, 128));
}
