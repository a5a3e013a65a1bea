// main() of the display-free ui tests: a QCoreApplication, so that timers and queued calls (the
// summary worker's results) are delivered while a test waits.
#include <gtest/gtest.h>

#include <QCoreApplication>

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
