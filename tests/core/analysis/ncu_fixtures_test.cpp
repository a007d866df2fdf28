// Holds the model to Nsight Compute's counters, measured on a GPU (tests/fixtures/ncu,
// README there says how). Each fixture row names a launch and one metric; the test traces
// the same launch on the emulator and computes the same figure from the trace.
//   Global request and sector counts are compared for every kernel.
//   Shared-memory loads and wavefronts where the compiled code has one 32-bit shared load
//   per source read (tiled-dynamic, tiled-transposed: run-time T). In the static tiled
//   kernels (T a multiple of 4) nvcc merges four Mds[ty][kk] reads into one 128-bit load
//   and the two branches of a boundary check into one store: the SASS-level instruction
//   counts are checked against that prediction instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <sstream>

#include "analysis_support.h"
#include "core/analysis/bank_conflicts.h"
#include "core/analysis/coalescing.h"

namespace tilescope {
namespace {

struct FixtureRow {
  std::string file;
  LaunchConfig config;
  std::string metric;
  uint64_t value = 0;
};

// Rows of "kernel,j,k,l,tile,bx,by,pad,metric,value" (a '#' line is a comment).
std::vector<FixtureRow> readFixtures() {
  std::vector<FixtureRow> rows;
  const std::filesystem::path dir(TILESCOPE_NCU_FIXTURES);
  if (!std::filesystem::exists(dir)) return rows;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".csv") continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#' || line.rfind("kernel,", 0) == 0) continue;
      std::stringstream ss(line);
      std::vector<std::string> f;
      for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
      if (f.size() != 10) {
        ADD_FAILURE() << entry.path() << ": malformed row '" << line << "'";
        continue;
      }
      auto id = kernelByName(f[0]);
      if (!id) {
        ADD_FAILURE() << entry.path() << ": unknown kernel " << f[0];
        continue;
      }
      FixtureRow r;
      r.file = entry.path().filename().string();
      r.config.kernel = *id;
      r.config.dims = {std::stoi(f[1]), std::stoi(f[2]), std::stoi(f[3])};
      r.config.tile = std::stoi(f[4]);
      r.config.blockX = std::stoi(f[5]);
      r.config.blockY = std::stoi(f[6]);
      r.config.pad = std::stoi(f[7]);
      r.metric = f[8];
      r.value = uint64_t(std::stod(f[9]));
      rows.push_back(r);
    }
  }
  return rows;
}

// Which shared-memory counters the model predicts is the kernel's fact (KernelInfo::ncuShared,
// written in its file): all of them where the SASS reads what the source reads (tiled-dynamic,
// tiled-transposed: run-time T); the loads' bank conflicts alone for most of the ladder (not their
// wavefronts: a 128-bit request whose lanes share addresses is served in fewer wavefronts than
// the model's quarter-warp minimum; the conflicts, wavefronts above that minimum, agree).
bool sharedMatchesSass(KernelId id) { return kernelInfo(id).ncuShared == NcuShared::All; }
bool sharedConflictsMatchSass(KernelId id) { return kernelInfo(id).ncuShared == NcuShared::Conflicts; }

TEST(NcuFixtures, ModelEqualsNsightCompute) {
  const auto rows = readFixtures();
  // The fixtures are part of the repository: without them this test would check nothing.
  ASSERT_FALSE(rows.empty()) << "no ncu fixtures under " << TILESCOPE_NCU_FIXTURES;
  std::map<std::string, std::map<std::string, uint64_t>> model;  // config -> metric -> value
  std::map<std::string, std::pair<uint64_t, uint64_t>> merged;    // config -> SASS-level shared ld, st
  int compared = 0;
  for (const FixtureRow& row : rows) {
    const std::string key = describe(row.config);
    if (!model.count(key)) {
      LaunchConfig c = row.config;
      c.seed = analysis_testing::freshSeed();
      const tilescope::Run run = analysis_testing::traced(c);
      if (!run.trace) continue;
      const CoalescingReport g = analyzeCoalescing(*run.trace);
      const BankReport b = analyzeBankConflicts(*run.trace);
      // What the static tiled kernels' SASS does instead (see the header comment): four
      // Mds reads per 128-bit load, and one shared store per tile whichever branch of the
      // boundary check a lane took.
      uint64_t readM = 0, readN = 0;
      std::set<std::tuple<int, int, int, int, char>> storeInstances;
      for (const SharedRequest& q : b.requests) {
        const WarpRequest& w = q.request;
        if (w.op == Op::ReadM) ++readM;
        if (w.op == Op::ReadN) ++readN;
        if (w.write) storeInstances.insert({w.blockX, w.blockY, w.warp, w.phase, w.op == Op::LoadM ? 'M' : 'N'});
      }
      merged[key] = {readN + readM / 4, storeInstances.size()};
      model[key] = {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", g.loads.requests},
                    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", g.loads.sectors},
                    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", g.stores.requests},
                    {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", g.stores.sectors},
                    {"smsp__sass_inst_executed_op_shared_ld.sum", b.loads.requests},
                    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", b.loads.wavefronts},
                    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", b.loads.conflicts()},
                    {"smsp__sass_inst_executed_op_shared_st.sum", b.stores.requests},
                    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", b.stores.wavefronts},
                    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", b.stores.conflicts()}};
    }
    const auto& m = model[key];
    if (!sharedMatchesSass(row.config.kernel) && kernelInfo(row.config.kernel).tileIsCompileTime &&
        row.config.tile % 4 == 0) {
      if (row.metric == "smsp__sass_inst_executed_op_shared_ld.sum") {
        EXPECT_EQ(merged[key].first, row.value) << row.file << ": " << key << " (128-bit Mds loads)";
        ++compared;
      }
      if (row.metric == "smsp__sass_inst_executed_op_shared_st.sum") {
        EXPECT_EQ(merged[key].second, row.value) << row.file << ": " << key << " (one store per tile)";
        ++compared;
      }
    }
    auto it = m.find(row.metric);
    if (it == m.end()) continue;  // recorded for information (e.g. shared stores)
    const bool shared = row.metric.find("shared") != std::string::npos;
    const bool conflicts = row.metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    if (shared && !sharedMatchesSass(row.config.kernel) && !(conflicts && sharedConflictsMatchSass(row.config.kernel)))
      continue;
    EXPECT_EQ(it->second, row.value) << row.file << ": " << key << " " << row.metric;
    ++compared;
  }
  EXPECT_GT(compared, 0);
}

// The fixtures and the kernels' facts name the same launches: every row is a launch of its
// kernel's ncuLaunches (what scripts/gpu-analysis profiles, read from `tilescope-cli kernels
// --json`), and every such launch has its four global counters in the fixtures.
TEST(NcuFixtures, RowsAreTheLaunchesTheKernelsFactsName) {
  std::map<std::string, int> globalRows;  // describe(launch) -> rows of global counters
  for (const FixtureRow& row : readFixtures())
    if (row.metric.find("global") != std::string::npos) ++globalRows[describe(row.config)];
  int launches = 0;
  for (const KernelInfo& k : kKernels)
    for (const NcuLaunch& n : k.ncuLaunches) {
      if (n.j == 0) break;
      LaunchConfig c;
      c.kernel = k.id;
      c.dims = {n.j, n.k, n.l};
      c.tile = n.tile;
      c.blockX = n.blockX;
      c.blockY = n.blockY;
      c.pad = n.pad;
      EXPECT_EQ(globalRows[describe(c)], 4) << describe(c) << ": its global counters are not all in the fixtures";
      ++launches;
    }
  EXPECT_EQ(std::size_t(launches), globalRows.size()) << "a fixture row names a launch no kernel's facts list";
}

// The ladder's rows are there and compared: 7 kernels x 4 global metrics, 6 x conflicts.
TEST(NcuFixtures, TheLaddersKernelsAreHeldToTheirCounters) {
  int rows = 0;
  for (const FixtureRow& row : readFixtures())
    if (!kernelTilings(row.config.kernel).empty()) {
      ++rows;
      LaunchConfig c = row.config;
      c.seed = analysis_testing::freshSeed();
      const tilescope::Run run = analysis_testing::traced(c);
      ASSERT_TRUE(run.trace) << describe(c);
      const CoalescingReport g = analyzeCoalescing(*run.trace);
      const BankReport b = analyzeBankConflicts(*run.trace);
      if (row.metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") {
        EXPECT_EQ(g.loads.sectors, row.value) << describe(c);
      }
      if (row.metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") {
        EXPECT_EQ(g.stores.sectors, row.value) << describe(c);
      }
      if (row.metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum" &&
          sharedConflictsMatchSass(row.config.kernel)) {
        EXPECT_EQ(b.loads.conflicts(), row.value) << describe(c);
      }
    }
  // 6 launches x 10 metrics; rung 8 (2026-11-25, bench/results/2026-11-25-h100-rung8): 8 metrics
  // (its shared stores are the copy engine's, not counted), its bank conflicts 0 on both sides
  // with M's tile swizzled (unswizzled, ncu counted 6144 where the model gave 4096). At least
  // those: a rung measured later adds its rows (RowsAreTheLaunchesTheKernelsFactsName holds
  // every launch a kernel's facts name to its rows). Rung 9 (2026-11-26, H200): rung 8's 8.
  EXPECT_GE(rows, 76);
}

}  // namespace
}  // namespace tilescope
