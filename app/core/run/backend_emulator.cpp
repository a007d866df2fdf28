#include "core/run/backend.h"

#include <algorithm>

#include "core/run/trace_decode.h"
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
    if (slots && stopAfterBarriers_ > 0) return launchFirstIntervals(plan, M, N, P, *slots);
    return launchWith(plan, M, N, P, slots, 0);
  }

 private:
  Result<LaunchOutcome> launchWith(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P,
                                   EventVector* slots, int stopAfterBarriers) {
    unsigned overflow = 0;
    TraceSink sink;
    if (slots) {
      slots->assign(plan.traceSlots, Event{});
      sink = traceSinkFor(plan.launch, slots->data(), plan.slotsPerThread, &overflow);
    }
    emu::Report report = runOnEmulator(plan.launch, M.values.data(), N.values.data(), P.values.data(),
                                       slots ? &sink : nullptr, stopAfterBarriers);
    if (!report.error.empty()) return failure("emulator: " + report.error);
    LaunchOutcome outcome;
    outcome.outOfBounds = std::move(report.outOfBounds);
    outcome.outOfBoundsTotal = report.outOfBoundsTotal;
    outcome.divergences = std::move(report.divergences);
    outcome.traceOverflowed = overflow != 0;
    outcome.blocksStopped = report.blocksStopped;
    return outcome;
  }

  // A launch to the barrier limit needs the slots of its first phases only: the plan's are
  // for every phase, and clearing them (a whole run's worth, 150 MB at 128^3) took a third of
  // the first picture's time. So it records into slots of its own, sized for the events of
  // stopAfterBarriers / 2 phases (a tiled kernel passes two barriers a phase) and what comes
  // before the first, decodes them here, and hands over the canonical trace (slotsDecoded). A
  // thread that needs more overflows them: the launch then runs whole, as the plan sized it.
  Result<LaunchOutcome> launchFirstIntervals(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P,
                                             EventVector& slots) {
    LaunchPlan first = plan;
    if (plan.phases > 0) {
      const unsigned perPhase = (plan.slotsPerThread + unsigned(plan.phases) - 1) / unsigned(plan.phases);
      first.slotsPerThread = std::min(plan.slotsPerThread, perPhase * unsigned(std::max(1, stopAfterBarriers_ / 2)) + 16);
      first.traceSlots = first.threads * first.slotsPerThread;
    }
    auto outcome = launchWith(first, M, N, P, &slots, stopAfterBarriers_);
    if (!outcome) return outcome;
    if (outcome->traceOverflowed) {
      poison(P);
      return launchWith(plan, M, N, P, &slots, 0);
    }
    auto trace = decodeTraceInPlace(first, std::move(slots), false);
    if (!trace) return trace.error();
    slots = std::move(trace->events);
    outcome->slotsDecoded = true;
    return outcome;
  }

  int stopAfterBarriers_;
};
}  // namespace

std::unique_ptr<Backend> makeEmulatorBackend(int stopAfterBarriers) {
  return std::make_unique<EmulatorBackend>(stopAfterBarriers);
}

int firstPictureBarriers(const LaunchConfig& c) {
  const KernelInfo& info = kernelInfo(c.kernel);
  const uint64_t multiplyAdds = uint64_t(c.dims.j) * uint64_t(c.dims.k) * uint64_t(c.dims.l);
  if (!info.tiled || !info.fixedTwin.empty() || info.races || c.dims.k <= c.tile || multiplyAdds < 64 * 64 * 64)
    return 0;
  // Phase 0's events: a thread per element of P, each loading 2 elements, reading 2T and
  // arriving at 2 barriers. 128^3 at T = 16 is 590 000 (about 50 ms of CPU), at T = 32 1.1 million.
  const uint64_t phaseZeroEvents = uint64_t(c.dims.j) * uint64_t(c.dims.l) * uint64_t(2 * c.tile + 4);
  constexpr uint64_t kLoadsOnlyFrom = 3 << 18;  // 786 432
  return phaseZeroEvents >= kLoadsOnlyFrom ? 1 : 2;
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
