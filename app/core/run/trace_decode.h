// A launch's trace from what its backend recorded: the per-thread slots put in canonical order
// (core/trace/trace.h), with each event's phase and k step derived (kernels/trace/step_rules.h).
#pragma once
#include "core/run/backend.h"
#include "core/run/launch_config.h"
#include "core/trace/trace.h"

namespace tilescope {

// Turns the executors' per-thread slots into the canonical order. `slots` holds
// plan.traceSlots events, plan.slotsPerThread per thread, unused ones Op::None.
Result<Trace> decodeTrace(const LaunchPlan& plan, const EventVector& slots, bool overflowed);

// The same in `slots`' own storage, one block after another on one core: no second buffer of
// the trace's size (finishTrace's choice where the decode would run on one core anyway).
Result<Trace> decodeTraceInPlace(const LaunchPlan& plan, EventVector&& slots, bool overflowed);

// The trace of a launch whose backend filled `slots`: decoded here, or adopted as it is
// when the backend already put it in canonical order (LaunchOutcome::slotsDecoded).
Result<Trace> finishTrace(const LaunchPlan& plan, EventVector&& slots, const LaunchOutcome& outcome);

}  // namespace tilescope
