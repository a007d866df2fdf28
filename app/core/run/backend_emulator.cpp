#include "core/run/backend.h"
#include "kernels/emu/run_on_emulator.h"

namespace tilescope {

namespace {
class EmulatorBackend final : public Backend {
 public:
  explicit EmulatorBackend(int stopAfterBarriers) : stopAfterBarriers_(stopAfterBarriers) {}
  BackendKind kind() const override { return BackendKind::Emulator; }
  std::string name() const override { return "emulator"; }
  std::string deviceName() const override { return "CPU emulator"; }

  Status supports(const LaunchPlan& plan) const override {
    const KernelLaunch& L = plan.launch;
    const uint64_t work = uint64_t(L.j) * uint64_t(L.k) * uint64_t(L.l);
    if (work > kMaxEmulatorMultiplyAdds)
      return invalidInput("the emulator runs at most " + std::to_string(kMaxEmulatorMultiplyAdds) +
                          " multiply-adds per launch (a few seconds on one core); " + std::to_string(L.j) + "x" +
                          std::to_string(L.k) + "x" + std::to_string(L.l) + " needs " + std::to_string(work) +
                          ": choose a smaller size, or --backend cuda on a GPU");
    if (!emulatorSupports(plan.launch))
      return invalidInput("the emulator has no instantiation of this kernel for tile width " +
                          std::to_string(plan.launch.tile));
    return Ok{};
  }

  Result<LaunchOutcome> launch(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P,
                               EventVector* slots) override {
    unsigned overflow = 0;
    TraceSink sink;
    if (slots) {
      slots->assign(plan.traceSlots, Event{});
      sink = traceSinkFor(plan.launch, slots->data(), plan.slotsPerThread, &overflow);
    }
    emu::Report report =
        runOnEmulator(plan.launch, M.values.data(), N.values.data(), P.values.data(), slots ? &sink : nullptr,
                                       stopAfterBarriers_);
    if (!report.error.empty()) return failure("emulator: " + report.error);
    LaunchOutcome outcome;
    outcome.outOfBounds = std::move(report.outOfBounds);
    outcome.outOfBoundsTotal = report.outOfBoundsTotal;
    outcome.divergences = std::move(report.divergences);
    outcome.traceOverflowed = overflow != 0;
    outcome.blocksStopped = report.blocksStopped;
    return outcome;
  }

 private:
  int stopAfterBarriers_;
};
}  // namespace

std::unique_ptr<Backend> makeEmulatorBackend(int stopAfterBarriers) {
  return std::make_unique<EmulatorBackend>(stopAfterBarriers);
}

std::string versionText(const std::string& program, std::string_view version) {
  std::string s = program + " " + std::string(version) + "\nCUDA code: " + cudaBuildDescription() + "\n";
  auto cuda = makeCudaBackend();
  if (!cuda) return s + "GPU: " + cuda.error().message + "\n";
  const std::string note = cudaCodeNote();
  return s + "GPU: " + (*cuda)->deviceName() + (note.empty() ? ", which runs this build's machine code" : ": " + note) + "\n";
}

Result<std::unique_ptr<Backend>> makeBackend(BackendChoice choice) {
  if (choice == BackendChoice::Emulator) return makeEmulatorBackend();
  auto cuda = makeCudaBackend();
  if (cuda.ok() || choice == BackendChoice::Cuda) return cuda;
  return makeEmulatorBackend();
}

}  // namespace tilescope
