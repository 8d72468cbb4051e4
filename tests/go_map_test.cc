// racelab::GoMap (go_map.h) and the gomap oracle (go_map_oracle.h): a write
// that overlaps another write, a read or an iterator step is reported as Go's
// runtime reports it, an iterator used after the map changed fails fast once,
// and sequential use reports nothing. The overlap is made deterministic with
// scheduling hooks that run a second access at the write's scheduling point,
// inside the first write.
#include "racelab/go_map.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "racelab/internal/go_map_oracle.h"
#include "racelab/internal/scheduling_hooks.h"
#include "racelab/internal/session.h"

namespace racelab {
namespace {

// Runs `inside` once, at the first "map.write" scheduling point.
class InsideAWrite : public SchedulingHooks {
 public:
  explicit InsideAWrite(std::function<void()> inside)
      : inside_(std::move(inside)) {
    set_active_scheduling_hooks(this);
  }
  ~InsideAWrite() override { set_active_scheduling_hooks(nullptr); }
  bool owns_calling_thread() const override { return true; }
  void yield_point(const char* what, PointEffect) override {
    if (std::string(what) != "map.write" || !inside_) return;
    std::function<void()> run = std::move(inside_);
    inside_ = nullptr;
    run();
  }
  bool block_on(const void*, const char*, LockMode, Timeout) override {
    return false;
  }
  void acquired(const void*, const char*, LockMode) override {}
  void released(const void*, LockMode) override {}
  bool cond_wait(const void*, Timeout) override { return false; }
  void cond_notify(const void*, bool) override {}
  bool spawn(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*,
             int*) override {
    return false;
  }
  bool object_wait(PointAccess, Timeout) override { return false; }
  int wake_object(const void*, int) override { return 0; }
  int object_waiters(const void*) const override { return 0; }
  bool join(pthread_t, JoinWait, bool*, Timeout) override { return false; }
  void detach(pthread_t) override {}

 private:
  std::function<void()> inside_;
};

class GoMapTest : public ::testing::Test {
 protected:
  Session session_;  // a fresh fault log for every test
};

TEST_F(GoMapTest, SequentialUseReportsNothing) {
  GoMap<std::string, int> m("m");
  m["a"] = 1;
  m["b"] = 2;
  EXPECT_TRUE(m.contains("a"));
  EXPECT_EQ(m.size(), 2u);
  int sum = 0;
  for (auto& [k, v] : m) sum += v;
  EXPECT_EQ(sum, 3);
  EXPECT_EQ(m.erase("a"), 1u);
  EXPECT_TRUE(take_go_map_faults().empty());
}

TEST_F(GoMapTest, AWriteInsideAWriteIsConcurrentMapWrites) {
  GoMap<std::string, int> m("sessions");
  {
    InsideAWrite hooks([&] { m["inner"] = 2; });
    m["outer"] = 1;
  }
  const std::vector<GoMapFaultRecord> faults = take_go_map_faults();
  ASSERT_FALSE(faults.empty());
  for (const GoMapFaultRecord& f : faults) {
    EXPECT_EQ(f.fault, GoMapFault::kConcurrentWrites);
    EXPECT_EQ(f.where, "sessions");
  }
}

TEST_F(GoMapTest, AReadInsideAWriteIsReadDuringWrite) {
  GoMap<std::string, int> m("m");
  {
    InsideAWrite hooks([&] { (void)m.contains("x"); });
    m.erase("x");
  }
  const std::vector<GoMapFaultRecord> faults = take_go_map_faults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].fault, GoMapFault::kReadDuringWrite);
}

TEST_F(GoMapTest, AnIteratorStepInsideAWriteIsIterationDuringWrite) {
  GoMap<std::string, int> m("m");
  m["a"] = 1;
  m["b"] = 2;
  auto it = m.begin();
  {
    InsideAWrite hooks([&] { ++it; });
    m["c"] = 3;
  }
  const std::vector<GoMapFaultRecord> faults = take_go_map_faults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].fault, GoMapFault::kIterationDuringWrite);
}

TEST_F(GoMapTest, AnIteratorUsedAfterAWriteFailsFastOnce) {
  GoMap<std::string, int> m("m");
  for (int i = 0; i < 4; ++i) m["k" + std::to_string(i)] = i;
  auto it = m.begin();
  ++it;  // no write yet: fine
  EXPECT_TRUE(take_go_map_faults().empty());
  m["k0"] = 10;  // an update is a write too
  ++it;
  ++it;  // reported once per iterator, as Java throws once
  const std::vector<GoMapFaultRecord> faults = take_go_map_faults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].fault, GoMapFault::kModifiedDuringIteration);
  // A fresh iterator after the write is fine.
  for (auto fresh = m.begin(); fresh != m.end(); ++fresh) {
  }
  EXPECT_TRUE(take_go_map_faults().empty());
}

TEST_F(GoMapTest, TheOracleSaysWhatGoSaysOncePerFaultAndMap) {
  record_go_map_fault(GoMapFault::kConcurrentWrites, "a");
  record_go_map_fault(GoMapFault::kConcurrentWrites, "a");
  record_go_map_fault(GoMapFault::kReadDuringWrite, "a");
  record_go_map_fault(GoMapFault::kIterationDuringWrite, "b");
  record_go_map_fault(GoMapFault::kModifiedDuringIteration, "c");
  std::vector<Finding> findings;
  collect_go_map_findings(true, findings);
  ASSERT_EQ(findings.size(), 4u);
  EXPECT_EQ(findings[0].kind, FindingKind::kConcurrentMapWrite);
  EXPECT_EQ(findings[0].summary,
            "fatal error: concurrent map writes (map 'a')");
  EXPECT_EQ(findings[1].kind, FindingKind::kConcurrentMapWrite);
  EXPECT_EQ(findings[1].summary,
            "fatal error: concurrent map read and map write (map 'a')");
  EXPECT_EQ(findings[2].kind, FindingKind::kMapIterationDuringWrite);
  EXPECT_EQ(findings[2].summary,
            "fatal error: concurrent map iteration and map write (map 'b')");
  EXPECT_EQ(findings[3].kind, FindingKind::kMapIterationDuringWrite);
  for (const Finding& f : findings) EXPECT_EQ(f.oracle, Oracle::kGomap);
}

TEST_F(GoMapTest, TheOracleTurnedOffDropsTheFaults) {
  record_go_map_fault(GoMapFault::kConcurrentWrites, "a");
  std::vector<Finding> findings;
  collect_go_map_findings(false, findings);
  EXPECT_TRUE(findings.empty());
  collect_go_map_findings(true, findings);
  EXPECT_TRUE(findings.empty());  // taken, not kept for later
}

}  // namespace
}  // namespace racelab
