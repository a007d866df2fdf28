// `tilescope-cli lab exercises --show NAME` prints what a student needs to start an exercise
// (its goal and starter, read here from the .exercise file itself), and every lab subcommand
// refuses a flag it does not read with exit 2 instead of ignoring it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli_runner.h"

namespace tilescope {
namespace {

using testing::CliResult;
using testing::runCli;

const std::string kExercises = TILESCOPE_EXERCISES;
const std::string kKernel = std::string(TILESCOPE_LAB_MISTAKES) + "/undeclared_name.cu";

TEST(LabExercisesCli, ShowPrintsTheGoalAndTheStarter) {
  std::ifstream in(kExercises + "/bounds_jkl.exercise");
  std::stringstream text;
  text << in.rdbuf();
  const std::string file = text.str();
  const std::string starter = file.substr(file.find("starter:\n") + 9);
  const std::size_t goal = file.find("goal: ") + 6;
  const std::string firstGoal = file.substr(goal, file.find('\n', goal) - goal);

  const CliResult r = runCli("lab exercises --show bounds_jkl");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("Boundary checks for any j x k x l"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(firstGoal), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(starter), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TILE_WIDTH=4"), std::string::npos) << "the define the starter needs";
  EXPECT_NE(r.out.find("5x7x3"), std::string::npos) << "a size it is graded at";

  const CliResult j = runCli("lab exercises --show bounds_jkl --json");
  EXPECT_EQ(j.exitCode, 0) << j.err;
  EXPECT_EQ(j.out.rfind("{\"exercise\":\"bounds_jkl\"", 0), 0u) << j.out;
  EXPECT_NE(j.out.find("\"starter\":\"__global__ void matrixMulKernel"), std::string::npos) << j.out;
}

TEST(LabExercisesCli, AnUnknownExerciseOrFlagIsRefusedWithTheNames) {
  const CliResult unknown = runCli("lab exercises --show x");
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_TRUE(unknown.out.empty()) << unknown.out;
  for (const auto& entry : std::filesystem::directory_iterator(kExercises)) {
    if (entry.path().extension() != ".exercise") continue;
    EXPECT_NE(unknown.err.find(entry.path().stem().string()), std::string::npos) << unknown.err;
  }
  const CliResult flag = runCli("lab exercises --shw x");
  EXPECT_EQ(flag.exitCode, 2);
  EXPECT_NE(flag.err.find("unknown flag '--shw'"), std::string::npos) << flag.err;
  EXPECT_EQ(runCli("lab exercises --show").exitCode, 2);
  EXPECT_EQ(runCli("lab exercises bounds_jkl").exitCode, 2);
}

TEST(LabExercisesCli, EveryLabSubcommandRefusesAFlagItDoesNotRead) {
  const std::string dir = std::filesystem::path(kKernel).parent_path().string();
  const std::vector<std::string> commands = {"lab run " + kKernel + " --bogus 1", "lab run " + kKernel + " --tile 4",
                                 "lab run " + kKernel + " --kernel tiled", "lab time " + kKernel + " --bogus 1",
                                 "lab check bounds_jkl " + kKernel + " --bogus 1",
                                 "lab check bounds_jkl " + kKernel + " --size 4", "lab grade bounds_jkl " + dir + " --bogus 1",
                                 "lab grade bounds_jkl " + dir + " --block 2x2", "lab exercises --size 4"};
  for (const std::string& args : commands) {
    SCOPED_TRACE(args);
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.err.find("unknown flag") != std::string::npos || r.err.find("does not apply") != std::string::npos)
        << r.err;
  }
}

}  // namespace
}  // namespace tilescope
