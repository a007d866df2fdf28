#include "analysis.h"

#include <cstdio>

#include "core/json_writer.h"
#include "core/trace/trace.h"

namespace tilescope {

AnalysisReport analyzeTrace(const Trace& trace, const DeviceProfile& profile, KernelResources resources,
                            const std::vector<Hazard>* hazards) {
  AnalysisReport r;
  WarpRequests requests = groupAllWarpRequests(trace);  // one walk for both spaces
  r.coalescing = analyzeCoalescing(std::move(requests.global));
  r.banks = analyzeBankConflicts(trace, std::move(requests.shared));
  r.hazards = hazards ? *hazards : findHazards(trace);
  r.traffic = measureTraffic(trace, r.coalescing);
  r.profile = profile;
  r.resources = resources.registersPerThread > 0 ? std::move(resources) : kernelResources(trace.launch);
  r.occupancy = computeOccupancy(profile, r.resources);
  r.waves = dealBlocks(int64_t(trace.launch.gridX) * trace.launch.gridY, profile.smCount, r.occupancy.blocksPerSm);
  // A lab launch carries no built-in id (its `kernel` is not read): analyzeRun names it.
  const std::string label = trace.launch.labTiles ? "lab kernel" : std::string(kernelInfo(trace.launch.kernel).name);
  r.roofline = rooflinePoint(profile, label, r.traffic.intensity());
  return r;
}

void writeAnalysisFields(JsonWriter& json, const AnalysisReport& r) {
  const CoalescingReport& c = r.coalescing;
  json.field("global_load_requests", c.loads.requests);
  json.field("global_load_sectors", c.loads.sectors);
  json.field("global_store_requests", c.stores.requests);
  json.field("global_store_sectors", c.stores.sectors);
  json.field("global_load_efficiency", c.loads.efficiency());
  json.field("global_store_efficiency", c.stores.efficiency());
  json.field("shared_load_requests", r.banks.loads.requests);
  json.field("shared_load_wavefronts", r.banks.loads.wavefronts);
  json.field("shared_bank_conflicts", r.banks.loads.conflicts());
  json.field("shared_store_requests", r.banks.stores.requests);
  json.field("shared_store_wavefronts", r.banks.stores.wavefronts);
  json.key("hazards").beginArray();
  for (const Hazard& h : r.hazards) {
    json.beginObject()
        .field("type", hazardName(h.type))
        .key("block").beginArray().value(int(h.blockX)).value(int(h.blockY)).endArray()
        .field("phase", h.phase())
        .key("threads").beginArray()
        .beginArray().value(int(h.first.threadX)).value(int(h.first.threadY)).endArray()
        .beginArray().value(int(h.second.threadX)).value(int(h.second.threadY)).endArray()
        .endArray()
        .key("lines").beginArray().value(int(h.first.line)).value(int(h.second.line)).endArray()
        .field("matrix", std::string(1, h.matrix))
        .key("slot").beginArray().value(h.sharedRow).value(h.sharedCol).endArray()
        .field("pairs", h.pairs)
        .endObject();
  }
  json.endArray();
  json.field("flops", r.traffic.flops);
  json.field("global_bytes", r.traffic.globalBytes());
  json.field("global_load_bytes", r.traffic.loadBytes);
  json.field("global_store_bytes", r.traffic.storeBytes);
  json.field("intensity", r.traffic.intensity());
  json.field("sector_intensity", r.traffic.sectorIntensity());
  json.key("roofline").beginObject()
      .field("bandwidth_gbs", r.profile.bandwidthGBs)
      .field("peak_gflops", r.profile.peakGflops)
      .field("ridge_intensity", ridgeIntensity(r.profile))
      .field("attainable_gflops", r.roofline.attainableGflops)
      .field("memory_bound", r.roofline.memoryBound)
      .field("source", r.profile.ceilingsSource)
      .endObject();
  json.key("occupancy").beginObject()
      .field("blocks_per_sm", r.occupancy.blocksPerSm)
      .field("threads_per_sm", r.occupancy.threadsPerSm)
      .field("occupancy", r.occupancy.occupancy)
      .field("limiter", limiterName(r.occupancy.limiter))
      .field("threads_per_block", r.resources.threadsPerBlock)
      .field("shared_bytes_per_block", r.resources.sharedBytesPerBlock)
      .field("registers_per_thread", r.resources.registersPerThread)
      .field("registers_source", r.resources.registersSource)
      .endObject();
  json.key("waves").beginObject()
      .field("blocks", r.waves.blocks)
      .field("sms", r.waves.smCount)
      .field("blocks_per_sm", r.waves.blocksPerSm)
      .field("blocks_per_wave", r.waves.slotsPerWave)
      .field("waves", r.waves.waves)
      .field("wave_count", r.waves.waveCount())
      .field("last_wave_blocks", r.waves.lastWaveBlocks)
      .field("last_wave_busy", r.waves.lastWaveBusy)
      .field("idle_sms_in_last_wave", r.waves.idleSmsInLastWave)
      .endObject();
  json.field("profile", r.profile.name);
  json.field("profile_label", r.profile.label);
}

void writeAnalysisText(std::ostream& out, const AnalysisReport& r) {
  char line[512];  // the device profile's label and ceilings source are long
  auto print = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out << line;
  };
  const CoalescingReport& c = r.coalescing;
  print("profile %s: %s\n", r.profile.name.c_str(), r.profile.label.c_str());
  print("global loads:  %llu requests, %llu sectors (%.2f per request), efficiency %.1f%%\n",
        (unsigned long long)c.loads.requests, (unsigned long long)c.loads.sectors, c.loads.sectorsPerRequest(),
        100.0 * c.loads.efficiency());
  print("  of M: %llu requests, %llu sectors; of N: %llu requests, %llu sectors\n",
        (unsigned long long)c.loadsM.requests, (unsigned long long)c.loadsM.sectors,
        (unsigned long long)c.loadsN.requests, (unsigned long long)c.loadsN.sectors);
  print("global stores: %llu requests, %llu sectors (%.2f per request), efficiency %.1f%%\n",
        (unsigned long long)c.stores.requests, (unsigned long long)c.stores.sectors, c.stores.sectorsPerRequest(),
        100.0 * c.stores.efficiency());
  print("shared loads:  %llu requests, %llu wavefronts, %llu bank conflicts\n",
        (unsigned long long)r.banks.loads.requests, (unsigned long long)r.banks.loads.wavefronts,
        (unsigned long long)r.banks.loads.conflicts());
  print("shared stores: %llu requests, %llu wavefronts, %llu bank conflicts\n",
        (unsigned long long)r.banks.stores.requests, (unsigned long long)r.banks.stores.wavefronts,
        (unsigned long long)r.banks.stores.conflicts());
  print("traffic: %llu FLOPs, %llu bytes loaded, %llu stored; intensity %.3f OP/B (loads only, as the chapter)\n",
        (unsigned long long)r.traffic.flops, (unsigned long long)r.traffic.loadBytes,
        (unsigned long long)r.traffic.storeBytes, r.traffic.intensity());
  print("roofline on %s: %.0f GB/s x %.3f OP/B -> %.0f GFLOPS attainable of %.0f (%s; ceilings: %s)\n",
        r.profile.name.c_str(), r.profile.bandwidthGBs, r.traffic.intensity(), r.roofline.attainableGflops,
        r.profile.peakGflops, r.roofline.memoryBound ? "memory bound" : "compute bound",
        r.profile.ceilingsSource.c_str());
  const Occupancy& o = r.occupancy;
  print("occupancy on %s: %d blocks/SM, %d threads/SM, %.1f%%, limited by %s\n", r.profile.name.c_str(),
        o.blocksPerSm, o.threadsPerSm, 100.0 * o.occupancy, std::string(limiterName(o.limiter)).c_str());
  print("  per block: %d threads, %d B shared (%d allocated), %d registers/thread (%s)\n",
        r.resources.threadsPerBlock, r.resources.sharedBytesPerBlock, o.sharedBytesPerBlock,
        r.resources.registersPerThread, r.resources.registersSource.c_str());
  print("  blocks/SM by threads %d, by block slots %d, by registers %d, by shared memory %d\n", o.blocksByThreads,
        o.blocksByBlocks, o.blocksByRegisters, o.blocksBySharedMemory);
  print("waves on %s: %s\n", r.profile.name.c_str(), describeWaves(r.waves).c_str());
  if (r.hazards.empty()) {
    out << "hazards: none\n";
  } else {
    out << "hazards: " << r.hazards.size() << " groups\n";
    const std::size_t shown = std::min<std::size_t>(r.hazards.size(), 8);
    for (std::size_t i = 0; i < shown; ++i) {
      const Hazard& h = r.hazards[i];
      print("  %s on %cds[%d][%d] in block (%d,%d) phase %d: %s line %d %s, %s line %d %s (%llu pairs)\n",
            std::string(hazardName(h.type)).c_str(), h.matrix, h.sharedRow, h.sharedCol, h.blockX, h.blockY,
            h.phase(), threadName(h.first.threadX, h.first.threadY).c_str(), h.first.line,
            h.first.write ? "writes" : "reads", threadName(h.second.threadX, h.second.threadY).c_str(), h.second.line,
            h.second.write ? "writes" : "reads", (unsigned long long)h.pairs);
    }
    if (r.hazards.size() > shown) out << "  ... and " << r.hazards.size() - shown << " more\n";
  }
}

}  // namespace tilescope
