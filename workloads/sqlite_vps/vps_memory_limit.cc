#include "workloads/sqlite_vps/vps_memory_limit.h"

#include <memory>
#include <mutex>
#include <utility>

#include "harness/memory_limit.h"
#include "workloads/sqlite_vps/vps_config.h"

namespace dbxb {

PhaseSequencesFactory WithDiskBoundMemoryLimit(PhaseSequencesFactory inner, uint64_t limit_bytes) {
  auto probe = std::make_shared<std::once_flag>();
  auto result = std::make_shared<MemoryLimitProbe>();
  return [inner = std::move(inner), limit_bytes, probe, result](
             const AdapterFactory& engine,
             const PhaseSuiteOptions& options) -> Result<std::vector<std::unique_ptr<PhaseSequence>>> {
    Result<std::vector<std::unique_ptr<PhaseSequence>>> sequences = inner(engine, options);
    if (!sequences.ok() || limit_bytes == 0) return sequences;
    std::call_once(*probe, [&] { *result = ProbeMemoryLimit(); });
    for (auto& seq : *sequences) {
      if (seq->dataset() == VpsDatasetName(VpsDataset::kDiskBound))
        seq = WithMemoryLimit(std::move(seq), limit_bytes, options.work_dir, *result);
    }
    return sequences;
  };
}

}  // namespace dbxb
